// How many records of each kind the database holds, for "nothing was written" checks. An
// employment's membership, invitation, linked user, participation and coverage are
// columns of it (server/domain/employment.ts), counted where they are set; its external ids are a list
// stored with it, counted by their number.
import type { Database } from '../../server/db/engines/database.js';

const counted: Record<string, string> = {
  companies: 'SELECT count(*) AS n FROM companies',
  persons: 'SELECT count(*) AS n FROM persons',
  employees: 'SELECT count(*) AS n FROM employees',
  external_ids: 'SELECT coalesce(sum(jsonb_array_length(external_ids)), 0) AS n FROM employees',
  memberships: 'SELECT count(membership_status) AS n FROM employees',
  invitations: 'SELECT count(invitation_status) AS n FROM employees',
  linked_users: 'SELECT count(linked_user_status) AS n FROM employees',
  participations: 'SELECT count(*) FILTER (WHERE has_participation) AS n FROM employees',
  coverages: 'SELECT count(coverage_status) AS n FROM employees',
  credentials: 'SELECT count(*) AS n FROM credentials',
  credential_companies: 'SELECT count(*) AS n FROM credential_companies',
  // Derived from the employments (server/db/derived): written with them or not at all.
  name_pieces: 'SELECT (SELECT count(*) FROM last_name_pieces) + (SELECT count(*) FROM first_name_pieces) AS n',
  rollups: 'SELECT (SELECT coalesce(sum(people), 0) FROM people_by_company_day) + (SELECT coalesce(sum(people), 0) FROM people_by_credential_day) AS n',
};

export async function storedRecordCounts(db: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [kind, sql] of Object.entries(counted)) counts[kind] = Number((await db.query<{ n: string }>(sql))[0]!.n);
  return counts;
}

/**
 * The columns that say when a write happened, not what it wrote: the change feed's instants
 * (two imports of one file at two moments record the same changes at different instants).
 */
const whenWritten: Record<string, string[]> = { changes: ['changed_at'], change_feed_head: ['at', 'time_states_through'] };

/** Every table's whole content, source and derived, as one digest per table: "exactly as before" checks. */
export async function databaseFingerprint(db: Database): Promise<Record<string, string>> {
  const tables = await db.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND relname <> 'schema_migrations' ORDER BY 1`,
  );
  const digest: Record<string, string> = {};
  for (const { name } of tables) {
    const text = whenWritten[name] ? `(to_jsonb(t) - ${whenWritten[name].map((c) => `'${c}'`).join(' - ')})::text` : 't::text';
    const [row] = await db.query<{ d: string | null }>(`SELECT md5(string_agg(${text}, '|' ORDER BY ${text})) AS d FROM ${name} t`);
    digest[name] = row?.d ?? 'empty';
  }
  return digest;
}
