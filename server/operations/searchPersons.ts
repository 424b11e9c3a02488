// POST /v1/persons/search (draft): the page of people a search selects, read and recorded
// in the access audit by one call (domain/reads.ts).
import { withheldGroups } from '../domain/fieldGroups.js';
import { type PersonQueryOptions, type SearchRequest, searchFilter } from '../domain/persons.js';
import type { LookupReads } from '../domain/reads.js';
import { decidedOnCurrent } from './confirmed.js';
import { searchResponseJson } from './responses.js';
import { type OperationHandler, PERSONAL_DATA_HEADERS, readerOf } from './types.js';

export function searchPersons(reads: LookupReads, options: PersonQueryOptions): OperationHandler {
  return async (input) => {
    const { credential, decided: filter } = await decidedOnCurrent(input.credential, (c) => searchFilter(input.body as SearchRequest, c, options));
    const page = await reads.searchPersons(filter, readerOf(credential));
    const json = searchResponseJson('persons', page, filter, withheldGroups(credential.fields));
    return { status: 200, body: undefined, json, headers: PERSONAL_DATA_HEADERS };
  };
}
