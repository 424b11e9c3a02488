// What an erasure covers, read before anything is deleted (server/privacy/erasure.ts
// deletes it through the delete path, server/db/derived). Every answer is ids and counts:
// nothing here reads a personal value out of the database.
import type { Queryable } from '../engines/database.js';

export interface PersonScope {
  employments: { id: string; companyId: string }[];
}

/** The person's employments, in every company; undefined when no such person is stored. */
export async function personScope(tx: Queryable, personId: string): Promise<PersonScope | undefined> {
  const [person] = await tx.query('SELECT 1 FROM persons WHERE id = $1', [personId]);
  if (!person) return undefined;
  const employments = await tx.query<{ id: string; companyId: string }>(
    'SELECT id, company_id AS "companyId" FROM employees WHERE person_id = $1 ORDER BY company_id, id',
    [personId],
  );
  return { employments };
}

export interface CompanyScope {
  linkedEmployments: number;
  unlinkedEmployments: number;
  /** People whose every employment is in this company: left with none, they are erased too. */
  personsLeft: string[];
  /** People with an employment here and another elsewhere: they stay, with the others. */
  personsKept: number;
  /** Credentials whose current company set holds the company (revoked ones too). */
  credentials: { id: string; name: string }[];
}

/** What offboarding the company takes with it; undefined when no such company is stored. */
export async function companyScope(tx: Queryable, companyId: string): Promise<CompanyScope | undefined> {
  const [company] = await tx.query('SELECT 1 FROM companies WHERE id = $1', [companyId]);
  if (!company) return undefined;
  const [counts] = await tx.query<{ linked: number; unlinked: number }>(
    `SELECT count(person_id)::int AS linked, (count(*) - count(person_id))::int AS unlinked FROM employees WHERE company_id = $1`,
    [companyId],
  );
  const people = await tx.query<{ id: string; left: boolean }>(
    `SELECT p.id, NOT EXISTS (SELECT 1 FROM employees o WHERE o.person_id = p.id AND o.company_id <> $1) AS left
       FROM (SELECT DISTINCT person_id AS id FROM employees WHERE company_id = $1 AND person_id IS NOT NULL) p
      ORDER BY p.id`,
    [companyId],
  );
  const credentials = await tx.query<{ id: string; name: string }>(
    `SELECT c.id, c.name FROM credentials c
      WHERE EXISTS (SELECT 1 FROM credential_companies cc WHERE cc.credential_id = c.company_set_id AND cc.company_id = $1)
      ORDER BY c.id`,
    [companyId],
  );
  return {
    linkedEmployments: counts!.linked,
    unlinkedEmployments: counts!.unlinked,
    personsLeft: people.filter((p) => p.left).map((p) => p.id),
    personsKept: people.filter((p) => !p.left).length,
    credentials,
  };
}

/** How many company-set memberships of sets no credential points at any more name the company. */
export async function replacedSetMemberships(tx: Queryable, companyId: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM credential_companies cc
      WHERE cc.company_id = $1 AND NOT EXISTS (SELECT 1 FROM credentials c WHERE c.company_set_id = cc.credential_id)`,
    [companyId],
  );
  return row!.n;
}

/**
 * Employments with no person link that share an identifying value with these people's
 * employments: an email (case-insensitive), a phone, an external id, or both names and
 * the date of birth. They may be the same individual, or someone else: an operator
 * decides, so they are reported, never erased on a guess. Reads every unlinked employment
 * (no index serves this rare question).
 */
export async function unlinkedLookalikes(tx: Queryable, personIds: readonly string[]): Promise<string[]> {
  if (!personIds.length) return [];
  const rows = await tx.query<{ id: string }>(
    `SELECT u.id FROM employees u
      WHERE u.person_id IS NULL
        AND EXISTS (SELECT 1 FROM employees e
                     WHERE e.person_id = ANY($1::uuid[])
                       AND (lower(e.email) = lower(u.email) OR e.phone = u.phone
                            OR (e.first_name_folded, e.last_name_folded, e.date_of_birth) = (u.first_name_folded, u.last_name_folded, u.date_of_birth)
                            OR EXISTS (SELECT 1 FROM jsonb_array_elements(e.external_ids) x JOIN jsonb_array_elements(u.external_ids) y ON x = y)))
      ORDER BY u.id`,
    [personIds],
  );
  return rows.map((r) => r.id);
}

/** How many access audit entries name one of these people (returned, or asked for in vain). */
export async function auditEntriesNaming(tx: Queryable, personIds: readonly string[]): Promise<number> {
  if (!personIds.length) return 0;
  const [row] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM access_audit WHERE person_ids && $1::uuid[] OR not_found_person_id = ANY($1::uuid[])',
    [personIds],
  );
  return row!.n;
}

export interface EmploymentScope {
  companyId: string;
  personId: string | null;
  /** The person has no other employment: they stay, seen by no credential, until erased. */
  personLeftWithout: boolean;
}

export async function employmentScope(tx: Queryable, employmentId: string): Promise<EmploymentScope | undefined> {
  const [row] = await tx.query<EmploymentScope>(
    `SELECT e.company_id AS "companyId", e.person_id AS "personId",
            e.person_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM employees o WHERE o.person_id = e.person_id AND o.id <> e.id) AS "personLeftWithout"
       FROM employees e WHERE e.id = $1`,
    [employmentId],
  );
  return row;
}

/** The tables that hold personal values or person ids, in every copy the service keeps. */
export const tablesWithPersonalData = [
  'employees',
  'persons',
  'last_name_pieces',
  'first_name_pieces',
  'last_name_dictionary',
  'first_name_dictionary',
] as const;

/**
 * Planner statistics (pg_statistic) hold sampled column values: names, emails, dates of
 * birth. Sampled again inside the erasure's transaction, they cannot hold a row it deleted.
 */
export async function resampleStatistics(tx: Queryable): Promise<void> {
  await tx.query(`ANALYZE ${tablesWithPersonalData.join(', ')}`);
}

/**
 * Rewrites those tables and their indexes (VACUUM FULL), and the planner statistics, which
 * also hold the samples of tables since dropped (an import's staging tables), so the bytes
 * of deleted rows leave their files; each table is locked against reads while it is
 * rewritten. Runs outside a transaction, as VACUUM must.
 */
export async function rewriteTablesWithPersonalData(db: Queryable): Promise<void> {
  await db.query(`VACUUM FULL ${[...tablesWithPersonalData, 'pg_statistic'].join(', ')}`);
}
