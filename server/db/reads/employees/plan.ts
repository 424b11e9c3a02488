// The employees query's plan (plans.ts): from a Search employees filter and credential, how
// its one statement reads a page of unlinked employments. Decided here, without SQL, and
// tested without a database (tests/employees/plan.test.ts):
//
// - the authorization, in the person query's forms (plans.ts authorization()): one
//   company as a plain equality (its index range read in created order), a few as an
//   array, many through a join with credential_companies, whose plan does not depend on
//   how many. A phone is the exception (phoneAuthorization);
// - one condition per set filter (domain/employment.ts employeeFilters), in declared order;
// - the page (after an offset, or right after a cursor's key), what the answer shows,
//   and whether the statement writes the audit entry.
import type { AuditInStatement } from '../../../domain/accessAudit.js';
import type { EmployeeFilter } from '../../../domain/employees.js';
import { employeeFilters } from '../../../domain/employment.js';
import type { FilterRule } from '../../../domain/fields.js';
import type { SearchScope } from '../../../domain/persons.js';
import { type Authorization, authorization, type Condition, type PlanPage, type PlanShows } from '../plans.js';

export interface EmployeesPlan extends PlanPage, PlanShows {
  kind: 'employees';
  authorization: Authorization;
  /** The set filters' conditions, in the order employeeFilters declares them. */
  conditions: Condition[];
  /** The access audit entry the statement writes itself, if any. */
  audit?: AuditInStatement;
}

const declared = Object.entries(employeeFilters) as [keyof typeof employeeFilters, FilterRule][];

/** How `filter`'s page is read. */
export function employeesPlan(filter: EmployeeFilter, audit?: AuditInStatement): EmployeesPlan {
  return {
    kind: 'employees',
    authorization: filter.phone !== undefined ? phoneAuthorization(filter) : authorization(filter.authorizedCompanies, inlined(filter), filter.credentialId),
    conditions: declared.flatMap(([name, rule]): Condition[] => {
      const value = filter[name];
      return value === undefined ? [] : [{ kind: 'filter', name, rule, value }];
    }),
    limit: filter.limit,
    offset: filter.offset,
    start: filter.start,
    fields: filter.fields,
    externalIdSystems: filter.externalIdSystems,
    audit,
    readPosition: filter.readPosition,
  };
}

const inlined = (scope: SearchScope) => scope.authorizedCompanies.length <= scope.inlineCompaniesMax;

/**
 * A phone search's authorization: inline companies always as an array, many through the
 * company set. A phone names one or two records wherever they are, so one company goes as
 * an array of one: as an equality, a prepared statement's generic plan costs any company
 * as an average one and reads the company's whole range, filtering by phone, where the
 * phone index reads one entry.
 */
export function phoneAuthorization(scope: SearchScope): Authorization {
  return inlined(scope) ? { form: 'companies', companies: scope.authorizedCompanies } : authorization(scope.authorizedCompanies, false, scope.credentialId);
}
