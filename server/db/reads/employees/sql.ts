// The employees query's plan (plan.ts) as its one SQL statement: the page of unlinked
// employments, their exact total, how many precede the page, and every one's JSON, read in
// one snapshot taken at statement_timestamp() (asOf); with the audit in the statement, its
// entry commits with the read or neither happens. One renderer per part, from the parts
// the read path shares (sqlParts.ts). tests/persons/personSql.test.ts holds the text of
// every shape.
import { employeeJson } from '../employeeJson.js';
import {
  AUDITED_BY_COLUMNS,
  auditCommit,
  auditedBy,
  auditParameters,
  authorizationParameter,
  authorizedCondition,
  conditionParameters,
  conditionSql,
  employeeShows,
  employeesListed,
  fromStart,
  PAGE_IDS,
  type Placeholders,
  pageCut,
  pageParameters,
  pageRowColumns,
  placeholdersOf,
  precedingCount,
  type Statement,
  showsParameters,
  statement,
} from '../sqlParts.js';
import type { EmployeesPlan } from './plan.js';

/**
 * The employees query's statement for this plan: one row per employment on the page, in
 * response order (or, for an empty page, one row with none), each with the page's asOf and
 * exact total and the employment as the contract's Employee in JSON text. Each shape is
 * planned once per connection: every one has one good plan whatever its values (a
 * company's range of the unlinked index, or a few ranges and a sort of a few thousand).
 */
export function employeesStatement(plan: EmployeesPlan): Statement {
  const parameters = [
    authorizationParameter(plan.authorization),
    ...plan.conditions.flatMap(conditionParameters),
    ...pageParameters(plan),
    ...showsParameters(plan),
    ...auditParameters(plan.audit),
  ];
  const $ = placeholdersOf(parameters);
  const sql = `WITH ${pageAndTotal(plan, $)}${auditEntry(plan, $)}
     ${employeeRows(plan, $)}`;
  return statement(sql, parameters, { prepared: true, after: plan.readPosition });
}

/** The authorized unlinked employments `e` the conditions match (after a cursor's key, if `after`), as FROM and WHERE. */
function matching(plan: EmployeesPlan, $: Placeholders, after = false): string {
  const inline = plan.authorization.form === 'company set' ? [] : [authorizedCondition(plan.authorization)];
  const fromKey = after ? [fromStart('after', 'e.created_at', 'e.id', $)] : [];
  const conditions = ['e.person_id IS NULL', ...inline, ...plan.conditions.map((c) => conditionSql(c, $)), ...fromKey];
  return `${employeesListed(plan.authorization)} WHERE ${conditions.join(' AND ')}`;
}

/**
 * The `page` (its employments' created time and id, in response order) and `total` CTEs
 * over the matching employments; after a cursor's key, also `before`, counted in the same
 * pass as the total.
 */
function pageAndTotal(plan: EmployeesPlan, $: Placeholders): string {
  const page = `page AS MATERIALIZED (
       SELECT e.created_at, e.id FROM ${matching(plan, $, plan.start !== undefined)}
        ORDER BY e.created_at, e.id ${pageCut(plan, $)}
     ),`;
  if (plan.start === undefined) return `${page}\n     total AS (SELECT count(*) AS n FROM ${matching(plan, $)})`;
  return `${page}
     counted AS MATERIALIZED (
       SELECT count(*) AS n, count(*) FILTER (WHERE ${fromStart('upTo', 'e.created_at', 'e.id', $)}) AS before FROM ${matching(plan, $)}
     ),
     total AS (SELECT n FROM counted),
     before AS (SELECT before AS n FROM counted)`;
}

/** The access audit's entry, written by the statement itself: the page's employment ids in response order; `at` is the response's asOf. */
function auditEntry({ audit }: EmployeesPlan, $: Placeholders): string {
  if (!audit) return '';
  return `,
     audited AS (
       INSERT INTO access_audit (${AUDITED_BY_COLUMNS}, person_ids, employee_ids)
       SELECT ${auditedBy($)}, '{}', ${PAGE_IDS}
       ${auditCommit(audit)}
     )`;
}

/** One row per page employment in response order (or one with none): the page's row (rows.ts), the Employee's JSON its item. */
function employeeRows(plan: EmployeesPlan, $: Placeholders): string {
  const item = `CASE WHEN page.id IS NOT NULL THEN ${employeeJson('e', employeeShows(plan, $))}::text END`;
  return `SELECT ${pageRowColumns({ ask: '1', total: '(SELECT n FROM total)', offset: precedingCount(plan, $), id: 'page.id', createdAt: 'page.created_at', item })}
       FROM (SELECT 1) AS always
       LEFT JOIN page ON true
       LEFT JOIN employees e ON e.id = page.id
      ORDER BY page.created_at, page.id`;
}
