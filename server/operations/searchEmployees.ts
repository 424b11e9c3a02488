// POST /v1/employees/search (draft): the employment records with no Person link in the
// credential's companies (docs/decisions/0018-search-employees.md), read and recorded in
// the access audit, by the employment ids the page held, by one call (domain/reads.ts).
import { employeeSearchFilter, type SearchEmployeesRequest } from '../domain/employees.js';
import { withheldGroups } from '../domain/fieldGroups.js';
import type { PersonQueryOptions } from '../domain/persons.js';
import type { LookupReads } from '../domain/reads.js';
import { decidedOnCurrent } from './confirmed.js';
import { searchResponseJson } from './responses.js';
import { type OperationHandler, PERSONAL_DATA_HEADERS, readerOf } from './types.js';

export function searchEmployees(reads: LookupReads, options: PersonQueryOptions): OperationHandler {
  return async (input) => {
    const { credential, decided: filter } = await decidedOnCurrent(input.credential, (c) =>
      employeeSearchFilter(input.body as SearchEmployeesRequest, c, options),
    );
    const page = await reads.searchEmployees(filter, readerOf(credential));
    const json = searchResponseJson('employees', page, filter, withheldGroups(credential.fields));
    return { status: 200, body: undefined, json, headers: PERSONAL_DATA_HEADERS };
  };
}
