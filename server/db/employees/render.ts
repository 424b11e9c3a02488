// The employees query's renderers: each turns one part of a plan (plan.ts) into SQL, and
// renderEmployeeSearch puts them into the one statement that reads a page. The page, its
// exact total and every employment's JSON are read in one snapshot, taken at
// statement_timestamp() (asOf); with the audit in the statement, its entry commits with
// the read or neither happens. tests/persons/personSql.test.ts holds the SQL of every shape.
import { filterCondition } from '../persons/personFilters.js';
import { AS_OF, employeeJson, iso } from '../persons/personJson.js';
import type { Authorization, Condition, EmployeePlan } from './plan.js';

/** A statement and its parameters, in placeholder order. */
export interface Rendered {
  text: string;
  params: unknown[];
}

/** Placeholders in the order their values are pushed. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    return `$${this.values.push(value)}`;
  }
}

/** The authorized unlinked employments `e`: the FROM items and the conditions every one meets. */
export function renderAuthorized(authorization: Authorization, params: Params): { from: string; where: string[] } {
  const unlinked = 'e.person_id IS NULL';
  if (authorization.form === 'single') return { from: 'employees e', where: [unlinked, `e.company_id = ${params.add(authorization.company)}::text`] };
  if (authorization.form === 'inline') return { from: 'employees e', where: [unlinked, `e.company_id = ANY(${params.add(authorization.companies)}::text[])`] };
  const companySet = params.add(authorization.companySet);
  return { from: `credential_companies cc JOIN employees e ON cc.credential_id = ${companySet}::uuid AND e.company_id = cc.company_id`, where: [unlinked] };
}

/** The filters' conditions on `e`, in plan order. */
export function renderConditions(conditions: readonly Condition[], params: Params): string[] {
  return conditions.map(({ rule, parameter }) => filterCondition(rule, params.add(parameter)));
}

/** The `page` (its employments' created time and id, in response order) and `total` CTEs over the matching employments. */
export function renderPageAndTotal(matching: string, limit: string, offset: string): string {
  return `page AS MATERIALIZED (
       SELECT e.created_at, e.id FROM ${matching}
        ORDER BY e.created_at, e.id LIMIT ${limit} OFFSET ${offset}
     ),
     total AS (SELECT count(*) AS n FROM ${matching})`;
}

/** The audit entry's CTE: the page's employment ids in response order; `at` is the response's asOf. */
export function renderAudit(audit: NonNullable<EmployeePlan['audit']>, params: Params): string {
  return `,
     audited AS (
       INSERT INTO access_audit (at, credential_id, operation, person_ids, employee_ids)
       SELECT ${AS_OF}, ${params.add(audit.credentialId)}::uuid, ${params.add(audit.operation)}, '{}', ARRAY(SELECT id FROM page ORDER BY created_at, id)
       ${audit.synchronousCommit ? '' : `FROM (SELECT set_config('synchronous_commit', 'off', true)) AS this_transaction`}
     )`;
}

/**
 * The one statement of a Search employees page: one row per employment on the page, in
 * response order (or, for an empty page, one row with none), each with the page's asOf
 * and exact total and the employment as the contract's Employee in JSON text.
 */
export function renderEmployeeSearch(plan: EmployeePlan): Rendered {
  const params = new Params();
  const { from, where } = renderAuthorized(plan.authorization, params);
  where.push(...renderConditions(plan.conditions, params));
  const matching = `${from} WHERE ${where.join(' AND ')}`;
  const pageAndTotal = renderPageAndTotal(matching, params.add(plan.limit), params.add(plan.offset));
  const systems = plan.externalIdSystems === undefined ? undefined : params.add(plan.externalIdSystems);
  const audited = plan.audit ? renderAudit(plan.audit, params) : '';
  const text = `WITH ${pageAndTotal}${audited}
     SELECT ${iso(AS_OF)} AS as_of,
            (SELECT n FROM total) AS total,
            page.id AS employee_id,
            CASE WHEN page.id IS NOT NULL THEN ${employeeJson('e', systems)}::text END AS employee
       FROM (SELECT 1) AS always
       LEFT JOIN page ON true
       LEFT JOIN employees e ON e.id = page.id
      ORDER BY page.created_at, page.id`;
  return { text, params: params.values };
}
