// The person query: Search persons, and Get person where the audit is written by the query
// itself (many exact lookups at once are personsByKey.ts). A single SQL statement reads the
// page of people, their exact total and every authorized employment with its source
// records, so the whole response is one snapshot (a statement sees one snapshot) taken at
// statement_timestamp(), which becomes `asOf`; and a page costs one round trip.
//
// It is built in two steps: a plan (personsPlan.ts: which name route, which form of
// authorization, which conditions, how the page is cut), decided without SQL, and its
// rendering (personsSql.ts). docs/contributing/person-query.md explains the choices.
import type { AuditInStatement } from '../../domain/accessAudit.js';
import { personFilters } from '../../domain/employment.js';
import type { PersonFilter, PersonPage } from '../../domain/persons.js';
import type { Queryable } from '../engines/database.js';
import { personsPlanner } from './personsPlan.js';
import { statementOf } from './statements.js';

/**
 * One row per person on the page, in response order (or, for an empty page, one row with
 * no person): the page's instant and exact total, and the person as the contract's
 * Person object in JSON text (personJson.ts), ready to be sent as it is.
 */
export interface PersonRow {
  /** asOf, as the contract writes it. */
  as_of: string;
  total: string;
  person_id: string | null;
  person: string | null;
}

/** The page findPersons' rows stand for. */
export function pageOf(rows: readonly PersonRow[]): PersonPage {
  return {
    asOf: rows[0]!.as_of,
    total: Number(rows[0]!.total),
    persons: rows.flatMap((row) => (row.person === null ? [] : [{ id: row.person_id!, json: row.person }])),
  };
}

/**
 * The page of people `filter` selects. With `audit`, the access audit's entry of this
 * response (access_audit) is written by the query's own statement: the entry commits with
 * the read or neither happens, and the caller hears of the rows only once it is committed
 * (server/access/auditWriter.ts).
 */
export const findPersons = personQuery(personFilters);

/** The person query over these filters: the service's (domain/employment.ts), to which a test may add filters of its own. */
export function personQuery<Rules extends typeof personFilters>(
  rules: Rules,
): (db: Queryable, filter: PersonFilter<Rules>, audit?: AuditInStatement) => Promise<PersonRow[]> {
  const planOf = personsPlanner(rules);
  return (db, filter, audit) => {
    const { sql, params, options } = statementOf(planOf(filter, audit));
    return db.query<PersonRow>(sql, params, options);
  };
}
