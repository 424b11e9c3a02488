// Many exact lookups in one statement, beside the person query (persons.ts): the Get person
// lookups and the searches by a phone or a person id alone that one credential's company
// set makes in the same event-loop turn share a round trip, a plan and a driver parse
// (server/operations/exactLookups.ts). Each ask's answer is what findPersons gives for
// that key alone with the ask's page: the exact total, and the page's people with every
// authorized employment and its source records. The plan is plans.ts PersonsByKeyPlan, its
// SQL personsByKeySql.ts; tests/persons/personsByKey.test.ts holds the two queries to the
// same answers.
import { personFilters } from '../../domain/employment.js';
import type { LookupKey, PageAnswer, PageAsk, PersonsByKeyFilter } from '../../domain/personQueries.js';
import type { Queryable } from '../engines/database.js';
import { authorization, type PersonsByKeyPlan } from './plans.js';
import { statementOf } from './statements.js';

/** The plan of these lookups: the same forms of authorization as the person query for a phone or a person id. */
export function personsByKeyPlan(filter: PersonsByKeyFilter, key: LookupKey, asks: readonly PageAsk[]): PersonsByKeyPlan {
  const inline = filter.authorizedCompanies.length <= filter.inlineCompaniesMax;
  return {
    kind: 'persons by key',
    authorization: authorization(filter.authorizedCompanies, inline, filter.credentialId),
    key,
    rule: personFilters[key],
    asks,
    externalIdSystems: filter.externalIdSystems,
    readPosition: filter.readPosition,
  };
}

/** What each of `asks` finds (in the same order), with the one asOf of their snapshot. */
export async function findPersonsByKey(
  db: Queryable,
  filter: PersonsByKeyFilter,
  key: LookupKey,
  asks: readonly PageAsk[],
): Promise<{ asOf: string; answers: PageAnswer[] }> {
  const { sql, params, options } = statementOf(personsByKeyPlan(filter, key, asks));
  const rows = await db.query<{ as_of: string; ask: string | null; total: string | null; person_id: string | null; person: string | null }>(
    sql,
    params,
    options,
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
