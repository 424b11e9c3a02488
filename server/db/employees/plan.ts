// The employees query as a plan: a plain value saying how a Search employees page is
// read (how the credential's companies authorize, which conditions hold on the one
// employment, which page, what the answer shows, whether the audit entry is written in
// the statement), decided without SQL and tested without a database
// (tests/employees/plan.test.ts). render.ts turns it into the one statement.
import type { AuditInStatement } from '../../domain/accessAudit.js';
import type { EmployeeFilter } from '../../domain/employees.js';
import { employeeFilters } from '../../domain/employment.js';
import type { FilterRule } from '../../domain/fields.js';
import { filterParameter } from '../persons/personFilters.js';

/**
 * How the credential's companies bound the employments: one company as a plain equality
 * (its index range read in created order); a few as an array parameter; many through a
 * join with credential_companies, whose plan does not depend on how many (PostgreSQL plans
 * a literal array element by element), as the person query does.
 */
export type Authorization = { form: 'single'; company: string } | { form: 'inline'; companies: readonly string[] } | { form: 'joined'; companySet: string };

/** One filter's condition on the employment: its rule and the parameter it compares with (a LIKE pattern for `contains`). */
export interface Condition {
  rule: FilterRule;
  parameter: string;
}

export interface EmployeePlan {
  authorization: Authorization;
  /** The set filters' conditions, in the order employeeFilters declares them. */
  conditions: readonly Condition[];
  limit: number;
  offset: number;
  /** Which external systems' ids to show; undefined shows all. */
  externalIdSystems?: readonly string[];
  /** The access audit entry the statement writes itself, if any. */
  audit?: AuditInStatement;
}

const declared = Object.entries(employeeFilters) as [keyof typeof employeeFilters, FilterRule][];

/** How `filter`'s page is read. */
export function planEmployeeSearch(filter: EmployeeFilter, audit?: AuditInStatement): EmployeePlan {
  const companies = filter.authorizedCompanies;
  const authorization: Authorization =
    companies.length > filter.inlineCompaniesMax
      ? { form: 'joined', companySet: filter.credentialId }
      : companies.length === 1
        ? { form: 'single', company: companies[0]! }
        : { form: 'inline', companies };
  const conditions = declared.flatMap(([name, rule]) => {
    const value = filter[name];
    return value === undefined ? [] : [{ rule, parameter: filterParameter(rule, value) }];
  });
  return { authorization, conditions, limit: filter.limit, offset: filter.offset, externalIdSystems: filter.externalIdSystems, audit };
}
