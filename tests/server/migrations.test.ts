// Migrations that move data: a database filled under the first schema comes out of the
// later migrations with its name dictionaries (003), people rollups (004), employment
// records as columns (005) and person times and external ids on each employment (006)
// built from what it held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import { findPersons } from '../../server/db/persons.js';
import { foldName } from '../../server/domain/names.js';
import { engines, throwawayDatabase, type ThrowawayDatabase } from '../helpers/databases.js';

const PERSON = '00000000-0000-4000-8000-000000000001';
const WITH_RECORDS = '00000000-0000-4000-8000-0000000000e1';
const BARE = '00000000-0000-4000-8000-0000000000e2';
const CREDENTIAL = '00000000-0000-4000-8000-0000000000c1';

describe.each(engines)('migrating a filled database on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine, { migrate: false });
    const { db } = database;
    await migrate(db, { through: '002_search_indexes.sql' });
    await db.query(`INSERT INTO companies VALUES ('co-1', 'One'), ('co-2', 'Two')`);
    await db.query(`INSERT INTO persons VALUES ($1, '2024-01-01T10:00:00Z', '2024-01-01T10:00:00Z')`, [PERSON]);
    await db.query(
      `INSERT INTO employees (id, company_id, person_id, person_created_at, first_name, last_name, first_name_folded, last_name_folded,
         date_of_birth, email, phone, address_line1, city, state, postal_code, created_at, updated_at)
       SELECT id::uuid, company, $1, '2024-01-01T10:00:00Z', 'Émile', 'Zola', 'émile', 'zola', '1980-01-01', 'e@example.com',
              '+14155550100', '1 Main', 'Paris', 'CA', '90000', now(), now()
         FROM (VALUES ($2, 'co-1'), ($3, 'co-2')) AS v(id, company)`,
      [PERSON, WITH_RECORDS, BARE],
    );
    await db.query(`INSERT INTO external_ids VALUES ($1, 'payroll', 'P-2'), ($1, 'hris', 'H-1'), ($1, 'payroll', 'P-10')`, [WITH_RECORDS]);
    await db.query(`INSERT INTO memberships VALUES ($1, 'revoked')`, [WITH_RECORDS]);
    await db.query(`INSERT INTO invitations VALUES ($1, 'pending', '2024-01-02T00:00:00Z', '2024-02-02T00:00:00Z')`, [WITH_RECORDS]);
    await db.query(`INSERT INTO linked_users VALUES ($1, 'active')`, [WITH_RECORDS]);
    await db.query(`INSERT INTO participations VALUES ($1, NULL, NULL)`, [WITH_RECORDS]);
    await db.query(`INSERT INTO coverages VALUES ($1, 'waived', '2024-03-01T00:00:00Z', NULL, 'family')`, [WITH_RECORDS]);
    await db.query(`INSERT INTO credentials (id, name, token_hash) VALUES ($1, 'both', '\\x01')`, [CREDENTIAL]);
    await db.query(`INSERT INTO credential_companies VALUES ($1, 'co-1'), ($1, 'co-2')`, [CREDENTIAL]);
    await migrate(db);
  });
  afterAll(() => database?.drop());

  it("moves each employment's records into its columns and drops their tables", async () => {
    const rows = await database.db.query(
      `SELECT id::text, membership_status, invitation_status, invitation_expires_at, linked_user_status, has_participation,
              participation_decision, coverage_status, coverage_plan_tier
         FROM employees ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: WITH_RECORDS, membership_status: 'revoked', invitation_status: 'pending', invitation_expires_at: new Date('2024-02-02T00:00:00Z'),
        linked_user_status: 'active', has_participation: true, participation_decision: null, coverage_status: 'waived', coverage_plan_tier: 'family' },
      { id: BARE, membership_status: null, invitation_status: null, invitation_expires_at: null, linked_user_status: null,
        has_participation: false, participation_decision: null, coverage_status: null, coverage_plan_tier: null },
    ]);
    const [left] = await database.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('memberships', 'invitations', 'linked_users', 'participations', 'coverages')`,
    );
    expect(left!.n).toBe(0);
  });

  it("copies the person's times and the external ids onto each employment, ids in byte order, and drops their table", async () => {
    const rows = await database.db.query(`SELECT id::text, person_updated_at, external_ids FROM employees ORDER BY id`);
    expect(rows).toEqual([
      { id: WITH_RECORDS, person_updated_at: new Date('2024-01-01T10:00:00Z'),
        external_ids: [{ system: 'hris', system_id: 'H-1' }, { system: 'payroll', system_id: 'P-10' }, { system: 'payroll', system_id: 'P-2' }] },
      { id: BARE, person_updated_at: new Date('2024-01-01T10:00:00Z'), external_ids: [] },
    ]);
    const [left] = await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'external_ids'`);
    expect(left!.n).toBe(0);
  });

  it('builds the name dictionaries, the name pieces and the people rollups from the rows already there', async () => {
    expect(await database.db.query('SELECT company_id, day::text, people FROM people_by_company_day ORDER BY 1')).toEqual([
      { company_id: 'co-1', day: '2024-01-01', people: 1 },
      { company_id: 'co-2', day: '2024-01-01', people: 1 },
    ]);
    expect(await database.db.query('SELECT day::text, people FROM people_by_credential_day')).toEqual([{ day: '2024-01-01', people: 1 }]);
    // Three characters or more go by the name pieces (008), fewer by the dictionaries (003, 007).
    for (const lastName of ['OLA', 'ol']) {
      const rows = await findPersons(database.db, {
        credentialId: CREDENTIAL, authorizedCompanies: ['co-1', 'co-2'], inlineCompaniesMax: 200, lastName: foldName(lastName), limit: 10, offset: 0,
      });
      expect(rows.map((r) => [r.person_id, r.id, Number(r.total)]), lastName).toEqual([[PERSON, WITH_RECORDS, 1], [PERSON, BARE, 1]]);
    }
  });
});
