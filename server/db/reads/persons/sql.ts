// The person query's plan (plan.ts) as its one SQL statement: the page of people, their
// exact total, how many precede the page, the audit entry it writes, and each person with
// every authorized employment as the contract's JSON. One renderer per part; each takes
// the plan and the placeholders of its parameters (sqlParts.ts).
// tests/persons/personSql.test.ts holds the text of every shape.
import { employeeJson, iso } from '../employeeJson.js';
import {
  AUDITED_BY_COLUMNS,
  auditCommit,
  auditedBy,
  auditParameters,
  authorizationParameter,
  authorizedCondition,
  companySetJoin,
  conditionParameters,
  conditionSql,
  employeeShows,
  employeesListed,
  fromStart,
  PAGE_IDS,
  type Parameters,
  type Placeholders,
  pageCut,
  pageEmployees,
  pageParameters,
  pageRowColumns,
  placeholdersOf,
  precedingCount,
  type Statement,
  showsParameters,
  statement,
} from '../sqlParts.js';
import { pageAndTotalFromRollups } from './listing.js';
import type { Paging, PersonsPlan } from './plan.js';

/** The person query's statement for this plan. */
export function personsStatement(plan: PersonsPlan): Statement {
  const parameters = personsParameters(plan);
  const $ = placeholdersOf(parameters);
  const sql = `WITH ${pageAndTotal(plan, $)}${auditEntry(plan, $)}
     ${personRows(plan, $)}`;
  // Every shape of this statement has one good plan whatever the values: a person id or
  // a phone picks out a handful of rows; a name fragment one range of the name pieces
  // per company, or (short) names from an array the planner cannot see into in any case;
  // a listing reads rollup rows and a few days of one index. So each shape is planned
  // once per connection, not on every call, which saves planning on every search (see
  // also plan_cache_mode in engines/database.ts). A short fragment over an inline list of
  // companies was the exception (its generic plan descended the name index once per
  // name and company, slower than planning each call), hence the join for those.
  return statement(sql, parameters, { prepared: true, after: plan.readPosition });
}

/** The statement's parameters in the order they are numbered. */
function personsParameters(plan: PersonsPlan): Parameters {
  const { paging, audit } = plan;
  return [
    authorizationParameter(plan.authorization),
    ...(paging.kind === 'person order' ? [['outside', paging.credentialId] as const] : []),
    ...plan.conditions.flatMap(conditionParameters),
    ...pageParameters(plan),
    ...(paging.kind === 'rollups' ? [['rollup', paging.rollup.key] as const] : []),
    ...showsParameters(plan),
    ...auditParameters(audit),
    ...(audit?.personId === undefined ? [] : [['audit person', audit.personId] as const]),
  ];
}

/** The conditions every match meets: linked, authorized (unless joined), and the plan's. */
function matchConditions(plan: PersonsPlan, $: Placeholders): string {
  const held = { condition: authorizedCondition(plan.authorization), 'companies outside': 'e.company_id NOT IN (SELECT id FROM outside)', join: undefined };
  const conditions = ['e.person_id IS NOT NULL', held[plan.matchesHeldBy], ...plan.conditions.map((c) => conditionSql(c, $))];
  return conditions.filter((c) => c !== undefined).join(' AND ');
}

/** The distinct people the conditions match (what a search that is not a listing pages and counts); those after or up to a cursor's key, if `side` says. */
function matched(plan: PersonsPlan, $: Placeholders, side?: 'after' | 'upTo'): string {
  const source = `${plan.source} e`;
  const from = plan.matchesHeldBy === 'join' ? `${source} ${companySetJoin('cc')}` : source;
  const fromKey = side === undefined ? '' : ` AND ${fromStart(side, 'e.person_created_at', 'e.person_id', $)}`;
  return `SELECT DISTINCT e.person_created_at AS created_at, e.person_id AS id FROM ${from} WHERE ${matchConditions(plan, $)}${fromKey}`;
}

/** The `page` and `total` CTEs (with their helpers), as the plan's paging cuts them. */
function pageAndTotal(plan: PersonsPlan, $: Placeholders): string {
  switch (plan.paging.kind) {
    case 'rollups':
      return listingPage(plan, plan.paging, $);
    case 'person order':
      return personOrderPage(plan, $);
    case 'collected':
      return collectedPage(plan, $);
  }
}

type ListingPaging = Extract<Paging, { kind: 'rollups' }>;

/** A listing: its total and the days its page falls in come from the people rollups. */
function listingPage(plan: PersonsPlan, { rollup, createdFrom, createdBefore }: ListingPaging, $: Placeholders): string {
  return pageAndTotalFromRollups({
    rollup,
    scope: $('rollup'),
    // By created time alone, a credential's employments are found company by company.
    listed: employeesListed(plan.authorization),
    conditions: matchConditions(plan, $),
    createdFrom: $(`filter ${createdFrom}`),
    createdBefore: $(`filter ${createdBefore}`),
    limit: $('limit'),
    start:
      plan.start === undefined
        ? { offset: $('offset') }
        : {
            after: fromStart('after', 'e.person_created_at', 'e.person_id', $),
            upTo: fromStart('upTo', 'e.person_created_at', 'e.person_id', $),
            at: $('start at'),
          },
  });
}

/**
 * In person order the matches come sorted: the page is their first people, and the total
 * one more pass that counts each person once. The companies outside the credential are
 * found again here, in the statement's own snapshot; NOT IN, which PostgreSQL leaves a
 * filter (a hash of those companies, probed per entry), keeps the entries' order, where a
 * join would hash them and lose it.
 */
function personOrderPage(plan: PersonsPlan, $: Placeholders): string {
  const outside = `SELECT c.id FROM companies c WHERE NOT EXISTS (SELECT FROM credential_companies cc WHERE cc.credential_id = ${$('outside')}::uuid AND cc.company_id = c.id)`;
  const before =
    plan.start === undefined
      ? ''
      : `,
     before AS (SELECT count(*) AS n FROM (${matched(plan, $, 'upTo')}) m)`;
  return `
     outside AS MATERIALIZED (${outside}),
     page AS MATERIALIZED (${matched(plan, $, plan.start && 'after')} ORDER BY 1, 2 ${pageCut(plan, $)}),
     total AS (SELECT count(*) AS n FROM (${matched(plan, $)}) m)${before}`;
}

/**
 * A name, phone or person id (or a company outside the credential, which selects nobody)
 * selects few enough people to collect them all: they are sorted once, de-duplicated in
 * that order and counted while the page is cut from them (cheaper than hashing them, then
 * counting and sorting them apart). Only a page past the end counts them again.
 */
function collectedPage(plan: PersonsPlan, $: Placeholders): string {
  if (plan.start !== undefined) return collectedPageAfterKey(plan, $);
  return `
     page AS MATERIALIZED (
       SELECT created_at, id, count(*) OVER () AS n
         FROM (${matched(plan, $)} ORDER BY 1, 2) m
        ORDER BY created_at, id ${pageCut(plan, $)}
     ),
     total AS (SELECT coalesce((SELECT n FROM page LIMIT 1), (SELECT count(*) FROM (${matched(plan, $)}) m)) AS n)`;
}

/** The collected page after a cursor's key: the matches up to the key are counted in the same pass as all of them. */
function collectedPageAfterKey(plan: PersonsPlan, $: Placeholders): string {
  const upTo = (at: string, id: string) => fromStart('upTo', at, id, $);
  return `
     page AS MATERIALIZED (
       SELECT created_at, id, n, before
         FROM (
           SELECT created_at, id, count(*) OVER () AS n, count(*) FILTER (WHERE ${upTo('created_at', 'id')}) OVER () AS before
             FROM (${matched(plan, $)} ORDER BY 1, 2) m
         ) counted
        WHERE ${fromStart('after', 'created_at', 'id', $)}
        ORDER BY created_at, id ${pageCut(plan, $)}
     ),
     total AS (SELECT coalesce((SELECT n FROM page LIMIT 1), (SELECT count(*) FROM (${matched(plan, $)}) m)) AS n),
     before AS (SELECT coalesce((SELECT before FROM page LIMIT 1), (SELECT count(*) FROM (${matched(plan, $, 'upTo')}) m)) AS n)`;
}

/**
 * The access audit's entry, written by the statement itself: it names the page's people in
 * response order and, for a person id that matched nobody, whom it asked for; `at` is the
 * response's asOf.
 */
function auditEntry({ audit }: PersonsPlan, $: Placeholders): string {
  if (!audit) return '';
  const notFound = audit.personId === undefined ? 'NULL' : `CASE WHEN (SELECT n FROM total) = 0 THEN ${$('audit person')}::uuid END`;
  return `, audited AS (
       INSERT INTO access_audit (${AUDITED_BY_COLUMNS}, person_ids, not_found_person_id)
       SELECT ${auditedBy($)},
              ${PAGE_IDS},
              ${notFound}
       ${auditCommit(audit)}
     )`;
}

/** One row per page person in response order (or one with no person): the page's row (rows.ts), the Person's JSON its item. */
function personRows(plan: PersonsPlan, $: Placeholders): string {
  const person = `CASE WHEN page.id IS NOT NULL THEN
              json_build_object('id', page.id, 'employments', p.employments, 'createdAt', ${iso('page.created_at')}, 'updatedAt', p.updated_at)::text
            END`;
  return `SELECT ${pageRowColumns({ ask: '1', total: '(SELECT n FROM total)', offset: precedingCount(plan, $), id: 'page.id', createdAt: 'page.created_at', item: person })}
       FROM (SELECT 1) AS always
       LEFT JOIN page ON true
       LEFT JOIN LATERAL (
         SELECT json_agg(${employeeJson('e', employeeShows(plan, $))} ORDER BY e.created_at, e.id) AS employments,
                ${iso('max(e.person_updated_at)')} AS updated_at
           FROM ${pageEmployees(plan.authorization, 'page.id')}
       ) p ON true
      ORDER BY page.created_at, page.id`;
}
