// GET /v1/persons/{personId} (draft): the same query as search, on one person id, so
// the two operations cannot disagree about what a credential may see.
import type { AccessAudit } from '../access/auditWriter.js';
import type { Database } from '../db/database.js';
import { findPersons } from '../db/persons.js';
import type { PersonQueryOptions } from '../domain/persons.js';
import { ApiError } from '../errors.js';
import { type OperationHandler, PERSONAL_DATA_HEADERS } from './types.js';

export function getPerson(db: Database, audit: AccessAudit, { inlineCompaniesMax }: PersonQueryOptions): OperationHandler {
  return async ({ params, query, credential }) => {
    const personId = params.personId!;
    const systems = query.externalIdSystems;
    // The access is recorded in the audit before anything is answered (by the query
    // itself, or in the spool), a 404 too: asking for someone is an access attempt.
    const [row] = await findPersons(
      db,
      {
        credentialId: credential.companySetId,
        authorizedCompanies: credential.companyList,
        inlineCompaniesMax,
        personId,
        limit: 1,
        offset: 0,
        externalIdSystems: systems === undefined ? undefined : ([] as string[]).concat(systems),
      },
      audit.inStatement && { ...audit.inStatement, credentialId: credential.id, operation: 'getPerson' },
    );
    await audit.spool?.append({
      at: row!.as_of,
      credentialId: credential.id,
      operation: 'getPerson',
      personIds: row?.person_id ? [row.person_id] : [],
      notFoundPersonId: row?.person_id ? undefined : personId,
    });
    // Unknown, or no employment in an authorized company: indistinguishable on purpose.
    if (!row?.person) throw new ApiError('not_found');
    // The contract's GetPersonResponse, around the Person PostgreSQL built.
    return { status: 200, body: undefined, json: `{"asOf":"${row.as_of}","person":${row.person}}`, headers: PERSONAL_DATA_HEADERS };
  };
}
