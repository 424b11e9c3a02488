// The employees query's plan (employeesPlan.ts) as its one SQL statement: the page of
// unlinked employments, their exact total and every one's JSON, read in one snapshot taken
// at statement_timestamp() (asOf); with the audit in the statement, its entry commits with
// the read or neither happens. One renderer per part, from the parts the read path shares
// (sqlParts.ts). tests/persons/personSql.test.ts holds the text of every shape.
import type { EmployeesPlan } from './employeesPlan.js';
import { AS_OF, employeeJson, iso } from './personJson.js';
import {
  auditCommit,
  auditedBy,
  auditParameters,
  authorizationParameter,
  authorizedCondition,
  conditionParameters,
  conditionSql,
  employeesListed,
  PAGE_IDS,
  type Placeholders,
  pageCut,
  pageParameters,
  placeholdersOf,
  type Statement,
  statement,
  systemsParameters,
  systemsPlaceholder,
} from './sqlParts.js';

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
    ...systemsParameters(plan),
    ...auditParameters(plan.audit),
  ];
  const $ = placeholdersOf(parameters);
  const sql = `WITH ${pageAndTotal(plan, $)}${auditEntry(plan, $)}
     ${employeeRows(plan, $)}`;
  return statement(sql, parameters, { prepared: true, after: plan.readPosition });
}

/** The authorized unlinked employments `e` the conditions match, as FROM and WHERE. */
function matching(plan: EmployeesPlan, $: Placeholders): string {
  const inline = plan.authorization.form === 'company set' ? [] : [authorizedCondition(plan.authorization)];
  const conditions = ['e.person_id IS NULL', ...inline, ...plan.conditions.map((c) => conditionSql(c, $))];
  return `${employeesListed(plan.authorization)} WHERE ${conditions.join(' AND ')}`;
}

/** The `page` (its employments' created time and id, in response order) and `total` CTEs over the matching employments. */
function pageAndTotal(plan: EmployeesPlan, $: Placeholders): string {
  return `page AS MATERIALIZED (
       SELECT e.created_at, e.id FROM ${matching(plan, $)}
        ORDER BY e.created_at, e.id ${pageCut($)}
     ),
     total AS (SELECT count(*) AS n FROM ${matching(plan, $)})`;
}

/** The access audit's entry, written by the statement itself: the page's employment ids in response order; `at` is the response's asOf. */
function auditEntry({ audit }: EmployeesPlan, $: Placeholders): string {
  if (!audit) return '';
  return `,
     audited AS (
       INSERT INTO access_audit (at, credential_id, operation, person_ids, employee_ids)
       SELECT ${auditedBy($)}, '{}', ${PAGE_IDS}
       ${auditCommit(audit)}
     )`;
}

/** One row per page employment in response order (or one with none): asOf, total, the Employee's JSON. */
function employeeRows(plan: EmployeesPlan, $: Placeholders): string {
  return `SELECT ${iso(AS_OF)} AS as_of,
            (SELECT n FROM total) AS total,
            page.id AS employee_id,
            CASE WHEN page.id IS NOT NULL THEN ${employeeJson('e', systemsPlaceholder(plan, $))}::text END AS employee
       FROM (SELECT 1) AS always
       LEFT JOIN page ON true
       LEFT JOIN employees e ON e.id = page.id
      ORDER BY page.created_at, page.id`;
}
