// Every kind of read plan and its renderer: a new kind without its renderer does not
// compile. Each kind is a folder of its own: its plan (plan.ts: what it reads, decided
// without SQL) and its SQL (sql.ts); every kind returns the same rows (rows.ts), read by
// runPlan.ts.

import type { EmployeesPlan } from './employees/plan.js';
import { employeesStatement } from './employees/sql.js';
import type { EmployeesByPhonePlan } from './employeesByPhone/plan.js';
import { employeesByPhoneStatement } from './employeesByPhone/sql.js';
import type { PersonsPlan } from './persons/plan.js';
import { personsStatement } from './persons/sql.js';
import type { PersonsByKeyPlan } from './personsByKey/plan.js';
import { personsByKeyStatement } from './personsByKey/sql.js';
import type { Statement } from './sqlParts.js';

/** Every plan the read path renders, told apart by `kind`. */
export type ReadPlan = PersonsPlan | PersonsByKeyPlan | EmployeesPlan | EmployeesByPhonePlan;

const renderers: { [Kind in ReadPlan['kind']]: (plan: Extract<ReadPlan, { kind: Kind }>) => Statement } = {
  persons: personsStatement,
  'persons by key': personsByKeyStatement,
  employees: employeesStatement,
  'employees by phone': employeesByPhoneStatement,
};

/** The SQL statement, parameters and query options of this plan. */
export function statementOf(plan: ReadPlan): Statement {
  return (renderers[plan.kind] as (plan: ReadPlan) => Statement)(plan);
}
