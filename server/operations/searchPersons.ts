// POST /v1/persons/search (draft). A search by a phone or a person id alone is an exact
// lookup: where the audit entry is not written by the query itself, it shares a statement
// with the other lookups of its event-loop turn (exactLookups.ts; the same answers as the
// person query's, tests/persons/personsByKey.test.ts).
import type { AccessAudit } from '../domain/accessAudit.js';
import { lookupKeyOf, type PersonQueries } from '../domain/personQueries.js';
import { type PersonFilter, type PersonPage, type PersonQueryOptions, type SearchRequest, searchFilter } from '../domain/persons.js';
import type { PersonLookups } from './exactLookups.js';
import { searchPersonsResponseJson } from './personResponses.js';
import { type OperationHandler, PERSONAL_DATA_HEADERS } from './types.js';

export function searchPersons(persons: PersonQueries, audit: AccessAudit, lookups: PersonLookups | undefined, options: PersonQueryOptions): OperationHandler {
  const search = (filter: PersonFilter, credentialId: string): Promise<PersonPage> => {
    const key = lookupKeyOf(filter);
    if (lookups && key) return lookups.lookUp(filter, key, { value: filter[key]!, limit: filter.limit, offset: filter.offset });
    return persons.findPage(filter, audit.inStatement && { ...audit.inStatement, credentialId, operation: 'searchPersons' });
  };

  return async ({ body, credential }) => {
    const filter = searchFilter(body as SearchRequest, credential, options);
    // Every page is recorded in the audit before it is sent (by the query itself, or in the
    // spool), an empty one too; a search for one person id that matched nobody names whom
    // it asked for.
    const page = await search(filter, credential.id);
    await audit.spool?.append({
      at: page.asOf,
      credentialId: credential.id,
      operation: 'searchPersons',
      personIds: page.persons.map((p) => p.id),
      notFoundPersonId: filter.personId !== undefined && page.total === 0 ? filter.personId : undefined,
    });
    return { status: 200, body: undefined, json: searchPersonsResponseJson(page, filter), headers: PERSONAL_DATA_HEADERS };
  };
}
