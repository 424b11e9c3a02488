// The read path's queries, each a plan of its kind run as one statement (runPlan.ts): what
// the audited reads (auditedReads.ts) send, and what the tests and the bench's direct-SQL
// reference call to read exactly what the service reads.
import type { AuditInStatement } from '../../domain/accessAudit.js';
import type { EmployeeFilter } from '../../domain/employees.js';
import { personFilters } from '../../domain/employment.js';
import type { PersonFilter, SearchScope } from '../../domain/persons.js';
import type { Page } from '../../domain/reads.js';
import type { Queryable } from '../engines/database.js';
import { employeesPlan } from './employees/plan.js';
import { employeesByPhonePlan } from './employeesByPhone/plan.js';
import type { LookupKey } from './lookups.js';
import { personsPlanner } from './persons/plan.js';
import { personsByKeyPlan } from './personsByKey/plan.js';
import type { PageAsk } from './plans.js';
import { runPlan } from './runPlan.js';

/**
 * The page of people `filter` selects: its people, exact total, and every authorized
 * employment, read in one statement, so in one snapshot taken at statement_timestamp(),
 * which becomes `asOf`. With `audit`, the access audit's entry of this response is
 * written by the same statement: the entry commits with the read or neither happens.
 */
export const findPersons = personQuery(personFilters);

/** The person query over these filters: the service's (domain/employment.ts), to which a test may add filters of its own. */
export function personQuery<Rules extends typeof personFilters>(
  rules: Rules,
): (db: Queryable, filter: PersonFilter<Rules>, audit?: AuditInStatement) => Promise<Page> {
  const planOf = personsPlanner(rules);
  return async (db, filter, audit) => (await runPlan(db, planOf(filter, audit)))[0]!;
}

/** What each of `asks` finds (in the same order) by `key` in `scope`, in one statement: each page what findPersons gives for that key alone. */
export const findPersonsByKey = (db: Queryable, scope: SearchScope, key: LookupKey, asks: readonly PageAsk[]): Promise<Page[]> =>
  runPlan(db, personsByKeyPlan(scope, key, asks));

/** The page of unlinked employments `filter` selects, as findPersons reads people (with `audit`, its entry written by the statement). */
export const findEmployees = async (db: Queryable, filter: EmployeeFilter, audit?: AuditInStatement): Promise<Page> =>
  (await runPlan(db, employeesPlan(filter, audit)))[0]!;

/** What each of `asks` (a phone in E.164 and a page) finds among unlinked employments in `scope`, in one statement: each page what findEmployees gives for that phone alone. */
export const findEmployeesByPhone = (db: Queryable, scope: SearchScope, asks: readonly PageAsk[]): Promise<Page[]> =>
  runPlan(db, employeesByPhonePlan(scope, asks));
