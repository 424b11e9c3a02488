// GET /v1/persons/{personId} (draft): the same query as search, on one person id, so
// the two operations cannot disagree about what a credential may see.
import type { operations } from '../../generated/types.full.js';
import type { AccessAudit } from '../access/auditWriter.js';
import type { Database } from '../db/database.js';
import { findPersons } from '../db/persons.js';
import { toPersonPage, type PersonQueryOptions } from '../domain/persons.js';
import { ApiError } from '../errors.js';
import { PERSONAL_DATA_HEADERS, type OperationHandler } from './types.js';

type GetPersonOk = operations['getPerson']['responses'][200]['content']['application/json'];

export function getPerson(db: Database, audit: AccessAudit, { inlineCompaniesMax }: PersonQueryOptions): OperationHandler {
  return async ({ params, query, credential }) => {
    const personId = params.personId!;
    const systems = query.externalIdSystems;
    const page = toPersonPage(
      await findPersons(db, {
        credentialId: credential.companySetId,
        authorizedCompanies: credential.companyList,
        inlineCompaniesMax,
        personId,
        limit: 1,
        offset: 0,
        externalIdSystems: systems === undefined ? undefined : ([] as string[]).concat(systems),
      }),
    );
    const person = page.persons[0];
    // Recorded before anything is answered, a 404 too: asking for someone is an access attempt.
    await audit.record({
      at: page.asOf,
      credentialId: credential.id,
      operation: 'getPerson',
      personIds: person ? [person.id] : [],
      notFoundPersonId: person ? undefined : personId,
    });
    // Unknown, or no employment in an authorized company: indistinguishable on purpose.
    if (!person) throw new ApiError('not_found');
    const response: GetPersonOk = { asOf: page.asOf.toISOString(), person };
    return { status: 200, body: response, headers: PERSONAL_DATA_HEADERS };
  };
}
