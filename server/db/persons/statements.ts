// Every read plan's statement (plans.ts ReadPlan): one renderer per kind, so a new kind
// of plan without its renderer does not compile.
import { employeesByPhoneStatement } from './employeesByPhoneSql.js';
import type { EmployeesByPhonePlan, EmployeesPlan } from './employeesPlan.js';
import { employeesStatement } from './employeesSql.js';
import { personsByKeyStatement } from './personsByKeySql.js';
import type { PersonsPlan } from './personsPlan.js';
import { personsStatement } from './personsSql.js';
import type { PersonsByKeyPlan } from './plans.js';
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
