// What Search employees means: the employment records with no Person link in the
// credential's companies, selected by the person search's filters on the one employment
// (domain/employment.ts employeeFilters), one page of them as the contract's Employee
// objects, built by the employees query (server/db/persons/employeeQueries.ts) and sent as they are.
import type { components } from '../../generated/types.full.js';
import type { Credential } from './credentials.js';
import { employeeFilters } from './employment.js';
import { type FilterValuesOf, filterValues, type PersonQueryOptions, type SearchScope, searchScope } from './persons.js';

export type SearchEmployeesRequest = components['schemas']['SearchEmployeesRequest'];

/** A search for unlinked employments: whose companies, which page, what it shows (as a person search's), and each filter's value as it compares (a name folded, a phone in E.164). */
export type EmployeeFilter = SearchScope & FilterValuesOf<typeof employeeFilters>;

/** A page as the operation answers it: its asOf and exact total, and each employment's id and JSON text, in response order. */
export interface EmployeePage {
  asOf: string;
  total: number;
  employees: { id: string; json: string }[];
}

/** The filter a Search employees request stands for, for this credential. */
export function employeeSearchFilter(request: SearchEmployeesRequest, credential: Credential, options: PersonQueryOptions): EmployeeFilter {
  return { ...searchScope(request, credential, options), ...filterValues(employeeFilters, request, options) };
}

const employeeFilterNames = Object.keys(employeeFilters) as (keyof typeof employeeFilters)[];

/** The phone of a search that sets it and no other filter: an exact lookup, which many callers' can share a statement. */
export function phoneLookupOf(filter: EmployeeFilter): string | undefined {
  const set = employeeFilterNames.filter((name) => filter[name] !== undefined);
  return set.length === 1 && set[0] === 'phone' ? filter.phone : undefined;
}
