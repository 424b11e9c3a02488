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
import type { PageAsk, PersonsByKeyFilter } from '../../domain/personQueries.js';
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

/** Many searches by a phone alone in one statement (operations/exactLookups.ts), each answered as the employees plan answers it alone. */
export interface EmployeesByPhonePlan {
  kind: 'employees by phone';
  authorization: Authorization;
  asks: readonly PageAsk[];
  externalIdSystems?: readonly string[];
  readPosition?: bigint;
}

const declared = Object.entries(employeeFilters) as [keyof typeof employeeFilters, FilterRule][];

/** How `filter`'s page is read. */
export function employeesPlan(filter: EmployeeFilter, audit?: AuditInStatement): EmployeesPlan {
  return {
    kind: 'employees',
    authorization: filter.phone !== undefined ? byPhone(filter) : authorization(filter.authorizedCompanies, inlined(filter), filter.credentialId),
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

/** How the asks of one credential's phone searches are read together. */
export function employeesByPhonePlan(scope: PersonsByKeyFilter, asks: readonly PageAsk[]): EmployeesByPhonePlan {
  return { kind: 'employees by phone', authorization: byPhone(scope), asks, externalIdSystems: scope.externalIdSystems, readPosition: scope.readPosition };
}

const inlined = (scope: PersonsByKeyFilter) => scope.authorizedCompanies.length <= scope.inlineCompaniesMax;

/** A phone search's authorization: inline companies always as an array (see the header), many through the company set. */
function byPhone(scope: PersonsByKeyFilter): Authorization {
  return inlined(scope) ? { form: 'companies', companies: scope.authorizedCompanies } : authorization(scope.authorizedCompanies, false, scope.credentialId);
}
