// What Search employees asks of the data layer (the port db/persons/employeeQueries.ts
// implements): the page of unlinked employments a filter selects, and many searches by a
// phone alone at once.
import type { AuditInStatement } from './accessAudit.js';
import type { EmployeeFilter, EmployeePage } from './employees.js';
import type { PageAsk, PersonsByKeyFilter } from './personQueries.js';

/** An ask's page; the statement's asOf is the same for all. */
export type EmployeeAnswer = Omit<EmployeePage, 'asOf'>;

export interface EmployeeQueries {
  /** The page of unlinked employments `filter` selects; with `audit`, its access audit entry is committed with it. */
  findPage(filter: EmployeeFilter, audit?: AuditInStatement): Promise<EmployeePage>;
  /**
   * What each of `asks` (a phone in E.164 and a page) finds, in the same order, with the one
   * asOf of their snapshot: each answer what findPage gives for that phone alone with the
   * ask's page. `filter` is the credential's scope, as for the person lookups.
   */
  findPagesByPhone(filter: PersonsByKeyFilter, asks: readonly PageAsk[]): Promise<{ asOf: string; answers: EmployeeAnswer[] }>;
}
