// The employees query's plan (plans.ts): from a Search employees filter and credential, how
// its one statement reads a page of unlinked employments. Decided here, without SQL, and
// tested without a database (tests/employees/plan.test.ts):
//
// - the authorization, in the person query's forms (plans.ts authorization()): one
//   company as a plain equality (its index range read in created order), a few as an
//   array, many through a join with credential_companies, whose plan does not depend on
//   how many. A phone is the exception: it names one or two records wherever they are, so
//   one company goes as an array of one. As an equality, a prepared statement's generic
//   plan costs any company as an average one and reads the company's whole range,
//   filtering by phone, where the phone index reads one entry;
// - one condition per set filter (domain/employment.ts employeeFilters), in declared order;
// - the page, what the answer shows, and whether the statement writes the audit entry.
import type { AuditInStatement } from '../../domain/accessAudit.js';
import type { EmployeeFilter } from '../../domain/employees.js';
import { employeeFilters } from '../../domain/employment.js';
import type { FilterRule } from '../../domain/fields.js';
import { type Authorization, authorization, type Condition } from './plans.js';

export interface EmployeesPlan {
  kind: 'employees';
  authorization: Authorization;
  /** The set filters' conditions, in the order employeeFilters declares them. */
  conditions: Condition[];
  limit: number;
  offset: number;
  /** Which external systems' ids to show; undefined shows all. */
  externalIdSystems?: readonly string[];
  /** The access audit entry the statement writes itself, if any. */
  audit?: AuditInStatement;
  readPosition?: bigint;
}

const declared = Object.entries(employeeFilters) as [keyof typeof employeeFilters, FilterRule][];

/** How `filter`'s page is read. */
export function employeesPlan(filter: EmployeeFilter, audit?: AuditInStatement): EmployeesPlan {
  const inline = filter.authorizedCompanies.length <= filter.inlineCompaniesMax;
  const byPhone = filter.phone !== undefined && inline;
  return {
    kind: 'employees',
    authorization: byPhone
      ? { form: 'companies', companies: filter.authorizedCompanies }
      : authorization(filter.authorizedCompanies, inline, filter.credentialId),
    conditions: declared.flatMap(([name, rule]): Condition[] => {
      const value = filter[name];
      return value === undefined ? [] : [{ kind: 'filter', name, rule, value }];
    }),
    limit: filter.limit,
    offset: filter.offset,
    externalIdSystems: filter.externalIdSystems,
    audit,
    readPosition: filter.readPosition,
  };
}
