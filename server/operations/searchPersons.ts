// POST /v1/persons/search (draft)
import type { AccessAudit } from '../access/auditWriter.js';
import type { Database } from '../db/database.js';
import { findPersons } from '../db/persons.js';
import { type PersonQueryOptions, type SearchRequest, searchFilter } from '../domain/persons.js';
import { type OperationHandler, PERSONAL_DATA_HEADERS } from './types.js';

export function searchPersons(db: Database, audit: AccessAudit, options: PersonQueryOptions): OperationHandler {
  return async ({ body, credential }) => {
    const filter = searchFilter(body as SearchRequest, credential, options);
    // Every page is recorded in the audit before it is sent (by the query itself, or in the
    // spool), an empty one too; a search for one person id that matched nobody names whom
    // it asked for.
    const rows = await findPersons(db, filter, audit.inStatement && { ...audit.inStatement, credentialId: credential.id, operation: 'searchPersons' });
    const { as_of, total } = rows[0]!;
    await audit.spool?.append({
      at: as_of,
      credentialId: credential.id,
      operation: 'searchPersons',
      personIds: rows.flatMap((row) => (row.person_id === null ? [] : [row.person_id])),
      notFoundPersonId: filter.personId !== undefined && Number(total) === 0 ? filter.personId : undefined,
    });
    const persons = rows.flatMap((row) => (row.person === null ? [] : [row.person])).join(',');
    // The contract's SearchPersonsResponse, around the Person objects PostgreSQL built.
    const json = `{"asOf":"${as_of}","persons":[${persons}],"pagination":{"limit":${filter.limit},"offset":${filter.offset},"total":${Number(total)}}}`;
    return { status: 200, body: undefined, json, headers: PERSONAL_DATA_HEADERS };
  };
}
