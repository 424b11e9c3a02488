// POST /v1/persons/search (draft)
import type { operations } from '../../generated/types.full.js';
import type { AccessAudit } from '../access/auditWriter.js';
import type { Database } from '../db/database.js';
import { findPersons } from '../db/persons.js';
import { searchFilter, toPersonPage, type PersonQueryOptions, type SearchRequest } from '../domain/persons.js';
import { PERSONAL_DATA_HEADERS, type OperationHandler } from './types.js';

type SearchOk = operations['searchPersons']['responses'][200]['content']['application/json'];

export function searchPersons(db: Database, audit: AccessAudit, options: PersonQueryOptions): OperationHandler {
  return async ({ body, credential }) => {
    const filter = searchFilter(body as SearchRequest, credential, options);
    const page = toPersonPage(await findPersons(db, filter));
    // Every page is recorded before it is sent, an empty one too; a search for one
    // person id that matched nobody names whom it asked for.
    await audit.record({
      at: page.asOf,
      credentialId: credential.id,
      operation: 'searchPersons',
      personIds: page.persons.map((person) => person.id),
      notFoundPersonId: filter.personId !== undefined && page.total === 0 ? filter.personId : undefined,
    });
    const response: SearchOk = {
      asOf: page.asOf.toISOString(),
      persons: page.persons,
      pagination: { limit: filter.limit, offset: filter.offset, total: page.total },
    };
    return { status: 200, body: response, headers: PERSONAL_DATA_HEADERS };
  };
}
