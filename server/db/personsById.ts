// Get person for many person ids in one statement: the lookups one credential's company
// set makes in the same event-loop turn share a round trip, a plan and a driver parse
// (server/operations/personLookups.ts). Each id's answer is what findPersons (persons.ts)
// gives for that id alone with a page of one: the person, with every authorized
// employment and its source records, or nothing when no authorized employment names it.
// tests/persons/personsById.test.ts holds the two to the same answers.

import type { Queryable } from './database.js';
import { AS_OF, employeeJson, iso } from './personJson.js';

export interface PersonsByIdFilter {
  /** The credential's company set, joined through credential_companies past `inlineCompaniesMax` companies. */
  credentialId: string;
  authorizedCompanies: readonly string[];
  inlineCompaniesMax: number;
  /** Which external systems' ids to show; undefined shows all. */
  externalIdSystems?: readonly string[];
}

/** One row per id that found a person; every row carries the statement's asOf. */
export interface PersonByIdRow {
  as_of: string;
  person_id: string;
  person: string;
}

/** The persons `ids` name that `filter`'s credential may see, with the one asOf of their snapshot. */
export async function findPersonsById(db: Queryable, filter: PersonsByIdFilter, ids: readonly string[]): Promise<{ asOf: string; rows: PersonByIdRow[] }> {
  const companies = filter.authorizedCompanies;
  // The same forms of authorization as findPersons for a person id.
  const inline = companies.length <= filter.inlineCompaniesMax;
  const single = inline && companies.length === 1;
  const params: unknown[] = [single ? companies[0] : inline ? companies : filter.credentialId, ids];
  const employees = inline
    ? `employees e WHERE e.person_id = asked.id AND ${single ? 'e.company_id = $1::text' : 'e.company_id = ANY($1::text[])'}`
    : 'employees e JOIN credential_companies cc ON cc.credential_id = $1::uuid AND cc.company_id = e.company_id WHERE e.person_id = asked.id';
  const systems = filter.externalIdSystems === undefined ? undefined : `$${params.push(filter.externalIdSystems)}`;
  // The statement's asOf comes back even when no id found anyone (the row with no person).
  const rows = await db.query<{ as_of: string; person_id: string | null; person: string | null }>(
    `SELECT ${iso(AS_OF)} AS as_of, found.person_id, found.person
       FROM (SELECT 1) AS always
       LEFT JOIN (
         SELECT asked.id::text AS person_id,
                json_build_object('id', asked.id, 'employments', p.employments, 'createdAt', ${iso('p.created_at')}, 'updatedAt', p.updated_at)::text AS person
           FROM (SELECT DISTINCT id FROM unnest($2::uuid[]) AS ids(id)) AS asked
           JOIN LATERAL (
             SELECT json_agg(${employeeJson('e', systems)} ORDER BY e.created_at, e.id) AS employments,
                    ${iso('max(e.person_updated_at)')} AS updated_at,
                    min(e.person_created_at) AS created_at
               FROM ${employees}
           ) p ON p.employments IS NOT NULL
       ) AS found ON true`,
    params,
    // One shape per form of authorization, whatever the ids: planned once per connection.
    { prepared: true },
  );
  return { asOf: rows[0]!.as_of, rows: rows.filter((row): row is PersonByIdRow => row.person !== null) };
}
