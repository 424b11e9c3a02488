// The exact lookups' plan (plan.ts) as their one SQL statement: each ask answered as the
// person query answers its key alone, with its own page and exact total, from one
// snapshot. tests/persons/personSql.test.ts holds the text of every shape.
import { employeeJson, iso } from '../employeeJson.js';
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
  pageEmployees,
  pageRowColumns,
  placeholdersOf,
  type Statement,
  showsParameters,
  statement,
} from '../sqlParts.js';
import type { PersonsByKeyPlan } from './plan.js';

/** The exact lookups' statement for this plan. */
export function personsByKeyStatement(plan: PersonsByKeyPlan): Statement {
  const parameters: Parameters = [authorizationParameter(plan.authorization), ...askParameters(plan.asks), ...showsParameters(plan)];
  const $ = placeholdersOf(parameters);
  // One shape per key and form of authorization, whatever the asks: planned once per connection.
  return statement(askedRows(plan, $), parameters, { prepared: true, after: plan.readPosition });
}

/**
 * Each ask's employments, found by its key's index, one ask at a time: the fence
 * (OFFSET 0) keeps the planner from joining the asks to a scan of a whole company, which
 * a generic plan estimates cheaper than a probe per ask.
 */
function matching({ authorization, rule }: PersonsByKeyPlan): string {
  const joined = authorization.form === 'company set';
  return `CROSS JOIN LATERAL (
                     SELECT e.person_created_at, e.person_id
                       FROM employees e${joined ? ` ${companySetJoin('cc')}` : ''}
                      WHERE e.person_id IS NOT NULL AND ${filterCondition(rule, 'a.value')}${joined ? '' : ` AND ${authorizedCondition(authorization)}`}
                     OFFSET 0
                   ) e`;
}

/**
 * Per ask: its matches as the person query collects them, counted and numbered in
 * response order; a row comes back for each person on the page, and one more (the first
 * match, with no person) where the page holds nobody but the total is not zero.
 */
function askedRows(plan: PersonsByKeyPlan, $: Placeholders): string {
  const found = {
    ask: 'found.ask',
    total: 'found.total',
    offset: 'found.page_offset',
    id: 'found.person_id',
    createdAt: 'found.created_at',
    item: 'found.person',
  };
  return `SELECT ${pageRowColumns(found)}
       FROM (SELECT 1) AS always
       LEFT JOIN (
         SELECT r.ask, r.n, r.total, r.page_offset, r.created_at, r.id::text AS person_id,
                CASE WHEN ${ON_ASKED_PAGE} THEN
                  json_build_object('id', r.id, 'employments', p.employments, 'createdAt', ${iso('r.created_at')}, 'updatedAt', p.updated_at)::text
                END AS person
           FROM (
             SELECT m.*, count(*) OVER (PARTITION BY m.ask) AS total,
                    row_number() OVER (PARTITION BY m.ask ORDER BY m.created_at, m.id) AS n
               FROM (
                 SELECT DISTINCT a.ask, a.page_limit, a.page_offset, e.person_created_at AS created_at, e.person_id AS id
                   FROM ${asksUnnested($)}
                   ${matching(plan)}
               ) m
           ) r
           LEFT JOIN LATERAL (
             SELECT json_agg(${employeeJson('e', employeeShows(plan, $))} ORDER BY e.created_at, e.id) AS employments,
                    ${iso('max(e.person_updated_at)')} AS updated_at
               FROM ${pageEmployees(plan.authorization, 'r.id')} AND ${ON_ASKED_PAGE}
           ) p ON true
          WHERE ${ON_ASKED_PAGE} OR r.n = 1
       ) AS found ON true
      ORDER BY found.ask, found.n`;
}
