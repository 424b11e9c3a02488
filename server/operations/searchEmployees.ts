// POST /v1/employees/search (draft): the employment records with no Person link in the
// credential's companies (docs/decisions/0018-search-employees.md). One statement per
// page, like the person search, and every page recorded in the access audit, by the
// employment ids it held, before it is sent. A search by a phone alone is an exact
// lookup: where the audit entry is not written by the query itself, it shares a statement
// with the other phone searches of its event-loop turn (exactLookups.ts; the same answers
// as the employees query's, tests/employees/byPhone.test.ts).
import type { AccessAudit } from '../domain/accessAudit.js';
import type { EmployeeQueries } from '../domain/employeeQueries.js';
import { type EmployeeFilter, type EmployeePage, employeeSearchFilter, phoneLookupOf, type SearchEmployeesRequest } from '../domain/employees.js';
import type { PersonQueryOptions } from '../domain/persons.js';
import type { EmployeeLookups } from './exactLookups.js';
import { type OperationHandler, PERSONAL_DATA_HEADERS } from './types.js';

/** The contract's SearchEmployeesResponse, written around the Employee objects PostgreSQL built as JSON text. */
export const searchEmployeesResponseJson = ({ asOf, total, employees }: EmployeePage, { limit, offset }: { limit: number; offset: number }) =>
  `{"asOf":"${asOf}","employees":[${employees.map((e) => e.json).join(',')}],"pagination":{"limit":${limit},"offset":${offset},"total":${total}}}`;

export function searchEmployees(
  employees: EmployeeQueries,
  audit: AccessAudit,
  lookups: EmployeeLookups | undefined,
  options: PersonQueryOptions,
): OperationHandler {
  const search = (filter: EmployeeFilter, credentialId: string): Promise<EmployeePage> => {
    const phone = phoneLookupOf(filter);
    if (lookups && phone !== undefined) return lookups.lookUp(filter, 'phone', { value: phone, limit: filter.limit, offset: filter.offset });
    return employees.findPage(filter, audit.inStatement && { ...audit.inStatement, credentialId, operation: 'searchEmployees' });
  };

  return async ({ body, credential }) => {
    const filter = employeeSearchFilter(body as SearchEmployeesRequest, credential, options);
    // Recorded before it is sent (by the query itself, or in the spool), an empty page too.
    const page = await search(filter, credential.id);
    await audit.spool?.append({
      at: page.asOf,
      credentialId: credential.id,
      operation: 'searchEmployees',
      personIds: [],
      employeeIds: page.employees.map((e) => e.id),
    });
    return { status: 200, body: undefined, json: searchEmployeesResponseJson(page, filter), headers: PERSONAL_DATA_HEADERS };
  };
}
