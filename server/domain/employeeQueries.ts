// What Search employees asks of the data layer (the port db/persons/employeeQueries.ts
// implements): the page of unlinked employments a filter selects.
import type { AuditInStatement } from './accessAudit.js';
import type { EmployeeFilter, EmployeePage } from './employees.js';

export interface EmployeeQueries {
  /** The page of unlinked employments `filter` selects; with `audit`, its access audit entry is committed with it. */
  findPage(filter: EmployeeFilter, audit?: AuditInStatement): Promise<EmployeePage>;
}
