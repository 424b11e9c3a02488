// The person query for many exact lookups in one statement: the Get person lookups and the
// searches by a phone or a person id alone that one credential's company set makes in the
// same event-loop turn share a round trip, a plan and a driver parse
// (server/operations/personLookups.ts). Each ask's answer is what findPersons (persons.ts)
// gives for that key alone with the ask's page: the exact total, and the page's people with
// every authorized employment and its source records.
// tests/persons/personsByKey.test.ts holds the two to the same answers.

import { personFilters } from '../../domain/employment.js';
import type { LookupKey, PageAnswer, PageAsk, PersonsByKeyFilter } from '../../domain/personQueries.js';
import type { Queryable } from '../engines/database.js';
import { filterCondition } from './personFilters.js';
import { AS_OF, employeeJson, iso } from './personJson.js';

/** What each of `asks` finds (in the same order), with the one asOf of their snapshot. */
export async function findPersonsByKey(
  db: Queryable,
  filter: PersonsByKeyFilter,
  key: LookupKey,
  asks: readonly PageAsk[],
): Promise<{ asOf: string; answers: PageAnswer[] }> {
  const companies = filter.authorizedCompanies;
  // The same forms of authorization as findPersons for a phone or a person id.
  const inline = companies.length <= filter.inlineCompaniesMax;
  const single = inline && companies.length === 1;
  const params: unknown[] = [
    single ? companies[0] : inline ? companies : filter.credentialId,
    asks.map((a) => a.value),
    asks.map((a) => a.limit),
    asks.map((a) => a.offset),
  ];
  const authorized = single ? 'e.company_id = $1::text' : 'e.company_id = ANY($1::text[])';
  // Each ask's employments are found by its key's index, one ask at a time: the fence
  // (OFFSET 0) keeps the planner from joining the asks to a scan of a whole company, which
  // a generic plan estimates cheaper than a probe per ask.
  const matching = `CROSS JOIN LATERAL (
                     SELECT e.person_created_at, e.person_id
                       FROM employees e${inline ? '' : ' JOIN credential_companies cc ON cc.credential_id = $1::uuid AND cc.company_id = e.company_id'}
                      WHERE e.person_id IS NOT NULL AND ${filterCondition(personFilters[key], 'a.value')}${inline ? ` AND ${authorized}` : ''}
                     OFFSET 0
                   ) e`;
  const pageEmployees = inline
    ? `employees e WHERE e.person_id = r.id AND ${authorized}`
    : 'employees e JOIN credential_companies ecc ON ecc.credential_id = $1::uuid AND ecc.company_id = e.company_id WHERE e.person_id = r.id';
  const systems = filter.externalIdSystems === undefined ? undefined : `$${params.push(filter.externalIdSystems)}`;
  // (A difference, not a sum: an offset may be as large as 2^53.)
  const onPage = 'r.n > r.page_offset AND r.n - r.page_offset <= r.page_limit';
  // Per ask: its matches as findPersons collects them, counted and numbered in response
  // order; a row comes back for each person on the page, and one more (the first match,
  // with no person) where the page holds nobody but the total is not zero.
  const rows = await db.query<{ as_of: string; ask: string | null; total: string | null; person_id: string | null; person: string | null }>(
    `SELECT ${iso(AS_OF)} AS as_of, found.ask, found.total, found.person_id, found.person
       FROM (SELECT 1) AS always
       LEFT JOIN (
         SELECT r.ask, r.n, r.total, r.id::text AS person_id,
                CASE WHEN ${onPage} THEN
                  json_build_object('id', r.id, 'employments', p.employments, 'createdAt', ${iso('r.created_at')}, 'updatedAt', p.updated_at)::text
                END AS person
           FROM (
             SELECT m.*, count(*) OVER (PARTITION BY m.ask) AS total,
                    row_number() OVER (PARTITION BY m.ask ORDER BY m.created_at, m.id) AS n
               FROM (
                 SELECT DISTINCT a.ask, a.page_limit, a.page_offset, e.person_created_at AS created_at, e.person_id AS id
                   FROM unnest($2::text[], $3::int8[], $4::int8[]) WITH ORDINALITY AS a(value, page_limit, page_offset, ask)
                   ${matching}
               ) m
           ) r
           LEFT JOIN LATERAL (
             SELECT json_agg(${employeeJson('e', systems)} ORDER BY e.created_at, e.id) AS employments,
                    ${iso('max(e.person_updated_at)')} AS updated_at
               FROM ${pageEmployees} AND ${onPage}
           ) p ON true
          WHERE ${onPage} OR r.n = 1
       ) AS found ON true
      ORDER BY found.ask, found.n`,
    params,
    // One shape per key and form of authorization, whatever the asks: planned once per connection.
    { prepared: true, after: filter.readPosition },
  );
  const answers: PageAnswer[] = asks.map(() => ({ total: 0, persons: [] }));
  for (const row of rows) {
    if (row.ask === null) continue;
    const answer = answers[Number(row.ask) - 1]!;
    answer.total = Number(row.total);
    if (row.person !== null) answer.persons.push({ id: row.person_id!, json: row.person });
  }
  return { asOf: rows[0]!.as_of, answers };
}
