// The phone searches' plan (plan.ts) as their one SQL statement: each ask answered as the
// employees query answers its phone alone, with its own page and exact total, from one
// snapshot. tests/persons/personSql.test.ts holds the text of every shape.
import { employeeFilters } from '../../../domain/employment.js';
import { employeeJson } from '../employeeJson.js';
import { filterCondition } from '../personFilters.js';
import {
  askParameters,
  asksUnnested,
  authorizationParameter,
  authorizedCondition,
  companySetJoin,
  employeeShows,
  ON_ASKED_PAGE,
  type Parameters,
  type Placeholders,
  pageRowColumns,
  placeholdersOf,
  type Statement,
  showsParameters,
  statement,
} from '../sqlParts.js';
import type { EmployeesByPhonePlan } from './plan.js';

/** The phone searches' statement for this plan. */
export function employeesByPhoneStatement(plan: EmployeesByPhonePlan): Statement {
  const parameters: Parameters = [authorizationParameter(plan.authorization), ...askParameters(plan.asks), ...showsParameters(plan)];
  const $ = placeholdersOf(parameters);
  // One shape per form of authorization, whatever the asks: planned once per connection.
  return statement(askedRows(plan, $), parameters, { prepared: true, after: plan.readPosition });
}

/**
 * Each ask's unlinked employments, found by the phone index, one ask at a time: the fence
 * (OFFSET 0) keeps the planner from joining the asks to a scan of a whole company.
 */
function matching({ authorization }: EmployeesByPhonePlan): string {
  const joined = authorization.form === 'company set';
  return `CROSS JOIN LATERAL (
                 SELECT e.created_at, e.id
                   FROM employees e${joined ? ` ${companySetJoin('cc')}` : ''}
                  WHERE e.person_id IS NULL AND ${filterCondition(employeeFilters.phone, 'a.value')}${joined ? '' : ` AND ${authorizedCondition(authorization)}`}
                 OFFSET 0
               ) m`;
}

/**
 * Per ask: its matches counted and numbered in response order (the employment's created
 * time, then its id); a row comes back for each employment on the page, and one more (the
 * first match, with no employment) where the page holds none but the total is not zero.
 */
function askedRows(plan: EmployeesByPhonePlan, $: Placeholders): string {
  const found = {
    ask: 'found.ask',
    total: 'found.total',
    offset: 'found.page_offset',
    id: 'found.employee_id',
    createdAt: 'found.created_at',
    item: 'found.employee',
  };
  return `SELECT ${pageRowColumns(found)}
       FROM (SELECT 1) AS always
       LEFT JOIN (
         SELECT r.ask, r.n, r.total, r.page_offset, r.created_at, r.id::text AS employee_id,
                CASE WHEN ${ON_ASKED_PAGE} THEN ${employeeJson('e', employeeShows(plan, $))}::text END AS employee
           FROM (
             SELECT a.ask, a.page_limit, a.page_offset, m.created_at, m.id,
                    count(*) OVER (PARTITION BY a.ask) AS total,
                    row_number() OVER (PARTITION BY a.ask ORDER BY m.created_at, m.id) AS n
               FROM ${asksUnnested($)}
               ${matching(plan)}
           ) r
           LEFT JOIN employees e ON e.id = r.id AND ${ON_ASKED_PAGE}
          WHERE ${ON_ASKED_PAGE} OR r.n = 1
       ) AS found ON true
      ORDER BY found.ask, found.n`;
}
