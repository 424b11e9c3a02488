// What Search employees means: the employment records with no Person link in the
// credential's companies, selected by the person search's filters on the one employment
// (domain/employment.ts employeeFilters), one page of them as the contract's Employee
// objects, built by the employees query (server/db/persons/employeeQueries.ts) and sent as they are.
import type { components } from '../../generated/types.full.js';
import type { Credential } from './credentials.js';
import { employeeFilters } from './employment.js';
import { DEFAULT_LIMIT, type FilterValuesOf, filterValue, type PersonQueryOptions } from './persons.js';

export type SearchEmployeesRequest = components['schemas']['SearchEmployeesRequest'];

export type EmployeeFilterName = keyof typeof employeeFilters;
export const employeeFilterNames = Object.keys(employeeFilters) as EmployeeFilterName[];

/** A search for unlinked employments: whose companies, which page, what it shows, and each filter's value as it compares (a name folded, a phone in E.164). */
export interface EmployeeFilter extends FilterValuesOf<typeof employeeFilters> {
  /** The credential's company set, joined through credential_companies past `inlineCompaniesMax` companies. */
  credentialId: string;
  authorizedCompanies: readonly string[];
  inlineCompaniesMax: number;
  limit: number;
  offset: number;
  /** Which external systems' ids to show; undefined shows all. */
  externalIdSystems?: readonly string[];
  /** The credential's Credential.readPosition: the page is read where the data is at least that far. */
  readPosition?: bigint;
}

/** A page as the operation answers it: its asOf and exact total, and each employment's id and JSON text, in response order. */
export interface EmployeePage {
  asOf: string;
  total: number;
  employees: { id: string; json: string }[];
}

/** The filter a Search employees request stands for, for this credential. */
export function employeeSearchFilter(
  request: SearchEmployeesRequest,
  credential: Credential,
  { defaultPhoneRegion, inlineCompaniesMax }: PersonQueryOptions,
): EmployeeFilter {
  const filter: EmployeeFilter = {
    credentialId: credential.companySetId,
    authorizedCompanies: credential.companyList,
    inlineCompaniesMax,
    limit: request.limit ?? DEFAULT_LIMIT,
    offset: request.offset ?? 0,
    externalIdSystems: request.externalIdSystems,
    readPosition: credential.readPosition,
  };
  for (const name of employeeFilterNames) filter[name] = filterValue(employeeFilters[name], name, request[name], defaultPhoneRegion);
  return filter;
}
