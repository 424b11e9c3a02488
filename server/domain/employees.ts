// What Search employees means: the employment records with no Person link in the
// credential's companies, selected by the person search's filters on the one employment
// (domain/employment.ts employeeFilters), one page of them as the contract's Employee
// objects, built by the read path (server/db/reads/) and sent as they are.
import type { components } from '../../generated/types.full.js';
import type { Credential } from './credentials.js';
import { employeeFilters } from './employment.js';
import { type FilterValuesOf, filterValues, type PersonQueryOptions, type SearchScope, searchScope } from './persons.js';

export type SearchEmployeesRequest = components['schemas']['SearchEmployeesRequest'];

/** A search for unlinked employments: whose companies, which page, what it shows (as a person search's), and each filter's value as it compares (a name folded, a phone in E.164). */
export type EmployeeFilter = SearchScope & FilterValuesOf<typeof employeeFilters>;

/** The filter a Search employees request stands for, for this credential. */
export function employeeSearchFilter(request: SearchEmployeesRequest, credential: Credential, options: PersonQueryOptions): EmployeeFilter {
  const values = filterValues(employeeFilters, request, options);
  return { ...searchScope('employees', request, values, credential, options), ...values };
}
