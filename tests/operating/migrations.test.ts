// The schema is one baseline migration plus whatever comes after it, and the derived
// data's upkeep is one repeatable source applied after them; server/db/schema/structure.sql is
// what they produce: migrating an empty database from scratch gives exactly that file, on
// each engine (`npm run db:structure` rewrites it after a change). Migrating again changes
// nothing; the upkeep source is applied again when the checksum recorded for it is not
// its own, and the upkeep it leaves keeps derived data equal to a rebuild.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedDataAndRebuild } from '../../server/db/derived/index.js';
import type { Database } from '../../server/db/engines/database.js';
import { migrate, upkeepSource } from '../../server/db/schema/migrate.js';
import { describeStructure } from '../../server/db/schema/structure.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const committed = readFileSync(new URL('../../server/db/schema/structure.sql', import.meta.url), 'utf8');
const upkeepChecksum = createHash('sha256')
  .update(readFileSync(new URL('../../server/db/derived/upkeep.sql', import.meta.url)))
  .digest('hex');
const lastMigration = readdirSync(new URL('../../server/db/schema/migrations/', import.meta.url))
  .sort()
  .at(-1);
const upkeepRow = { version: `${upkeepSource} sha256:${upkeepChecksum} after ${lastMigration}` };

const upkeepRows = (db: Database) =>
  db.query<{ version: string }>(`SELECT version FROM schema_migrations WHERE starts_with(version, $1) ORDER BY 1`, [`${upkeepSource} `]);
const triggerExists = async (db: Database, name: string) =>
  (await db.query('SELECT 1 FROM pg_trigger WHERE tgname = $1 AND NOT tgisinternal', [name])).length === 1;

/** One linked employment written by plain SQL (the upkeep serves every writer, not only the import). */
async function writeEmployment(db: Database, n: number): Promise<void> {
  const person = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const employment = `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;
  await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO companies (id, name) VALUES ('acme', 'Acme') ON CONFLICT DO NOTHING`);
    await tx.query(`INSERT INTO persons (id, created_at, updated_at) VALUES ($1, '2024-03-0${n}T10:00:00Z', '2024-03-0${n}T10:00:00Z')`, [person]);
    await tx.query(
      `INSERT INTO employees (id, company_id, person_id, person_created_at, person_updated_at, first_name, last_name, first_name_folded,
                              last_name_folded, date_of_birth, email, phone, address_line1, city, state, postal_code, created_at, updated_at)
       SELECT $1, 'acme', id, created_at, updated_at, 'Ada', $2, 'ada', lower($2), '1990-01-01', 'a@example.com', '+15551234567',
              '1 Main St', 'Springfield', 'IL', '62701', created_at, created_at FROM persons WHERE id = $3`,
      [employment, `Lovelace${n}`, person],
    );
  });
}

describe.each(engines)('migrating on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine, { migrate: false });
  });
  afterAll(() => database?.drop());

  it('gives exactly server/db/schema/structure.sql from scratch (run `npm run db:structure` after a change)', async () => {
    const applied = await migrate(database.db);
    expect(applied).toContain('001_baseline.sql');
    expect(applied.at(-1)).toBe(upkeepSource);
    expect(await describeStructure(database.db)).toBe(committed);
    expect(await upkeepRows(database.db)).toEqual([upkeepRow]);
  });

  it('applies nothing the second time', async () => {
    expect(await migrate(database.db)).toEqual([]);
    expect(await describeStructure(database.db)).toBe(committed);
  });

  it('does not look at the upkeep again while its checksum is recorded (a start pays for a hash, not a re-apply)', async () => {
    await database.db.query('DROP TRIGGER employees_truncated ON employees');
    expect(await migrate(database.db)).toEqual([]);
    expect(await triggerExists(database.db, 'employees_truncated')).toBe(false);
  });

  it('applies the upkeep source again when the recorded checksum is not its own, and its triggers then keep derived data', async () => {
    // As a database whose upkeep came from an older source would be: a body and a trigger
    // that differ from the source's, and that source's checksum.
    await database.db.query(`CREATE OR REPLACE FUNCTION forget_derived_data() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`);
    await database.db.query(`UPDATE schema_migrations SET version = $1 WHERE starts_with(version, $2)`, [`${upkeepSource} sha256:older`, `${upkeepSource} `]);
    expect(await describeStructure(database.db)).not.toBe(committed);

    expect(await migrate(database.db)).toEqual([upkeepSource]);
    expect(await describeStructure(database.db)).toBe(committed);
    expect(await upkeepRows(database.db)).toEqual([upkeepRow]);
    expect(await migrate(database.db)).toEqual([]);

    await writeEmployment(database.db, 1);
    await writeEmployment(database.db, 2);
    const { kept, rebuilt } = await derivedDataAndRebuild(database.db);
    expect(kept.people_by_company_day).toHaveLength(2);
    expect(kept.last_name_pieces.length).toBeGreaterThan(0);
    expect(kept).toEqual(rebuilt);
    await database.db.query('TRUNCATE employees');
    expect((await derivedDataAndRebuild(database.db)).kept.last_name_pieces).toEqual([]);
  });

  it('applies the upkeep source again once a migration has been added since it was applied', async () => {
    await database.db.query(`UPDATE schema_migrations SET version = $1 WHERE starts_with(version, $2)`, [
      `${upkeepSource} sha256:${upkeepChecksum} after 000_earlier.sql`,
      `${upkeepSource} `,
    ]);
    expect(await migrate(database.db)).toEqual([upkeepSource]);
    expect(await upkeepRows(database.db)).toEqual([upkeepRow]);
    expect(await describeStructure(database.db)).toBe(committed);
  });

  it('lets several migrators start at once on an empty database: each step is applied once, the schema is the same', async () => {
    const fresh = await throwawayDatabase(engine, { migrate: false });
    try {
      const applied = (await Promise.all([migrate(fresh.db), migrate(fresh.db), migrate(fresh.db)])).flat();
      expect(applied.filter((step) => step === '001_baseline.sql')).toHaveLength(1);
      expect(applied.filter((step) => step === upkeepSource)).toHaveLength(1);
      expect(await describeStructure(fresh.db)).toBe(committed);
    } finally {
      await fresh.drop();
    }
  });

  it('carries a populated database over migration 004: first-name entries without the last name, equal to a rebuild', async () => {
    const populated = await throwawayDatabase(engine);
    try {
      const { db } = populated;
      for (const n of [1, 2, 3]) await writeEmployment(db, n);
      // A second employment of the first person in the same company, under another last name.
      await db.query(`
        INSERT INTO employees (id, company_id, person_id, person_created_at, person_updated_at, first_name, last_name, first_name_folded,
                               last_name_folded, date_of_birth, email, phone, address_line1, city, state, postal_code, created_at, updated_at)
        SELECT '00000000-0000-4000-9000-0000000000aa', company_id, person_id, person_created_at, person_updated_at, first_name, 'Byron',
               first_name_folded, 'byron', date_of_birth, email, phone, address_line1, city, state, postal_code, created_at, updated_at
          FROM employees WHERE last_name_folded = 'lovelace1'`);
      // The database as it stood before 004: first-name entries that held the last name
      // too, no piece index on the first-name dictionary, the upkeep of that time recorded.
      await db.query('DROP INDEX first_name_dictionary_pieces');
      await db.query('DROP TABLE first_name_pieces');
      await db.query(`
        CREATE TABLE first_name_pieces (
          piece text NOT NULL, company_id text NOT NULL, person_created_at timestamptz NOT NULL, person_id uuid NOT NULL,
          last_name_folded text NOT NULL, first_name_folded text NOT NULL,
          PRIMARY KEY (piece, company_id, person_created_at, person_id, first_name_folded, last_name_folded))`);
      await db.query(`CREATE INDEX first_name_pieces_by_person ON first_name_pieces (piece COLLATE "C", person_created_at, person_id)
                        INCLUDE (company_id, first_name_folded, last_name_folded)`);
      await db.query(`
        INSERT INTO first_name_pieces
        SELECT DISTINCT p, company_id, person_created_at, person_id, last_name_folded, first_name_folded
          FROM employees CROSS JOIN unnest(name_pieces(first_name_folded)) AS p WHERE person_id IS NOT NULL`);
      // (009 set these columns' collation since: it is applied again after 004.)
      await db.query(`DELETE FROM schema_migrations WHERE version IN ('004_first_name_pieces_without_last_name.sql', '009_name_piece_keys_in_byte_order.sql')`);
      await db.query(`UPDATE schema_migrations SET version = $1 WHERE starts_with(version, $2)`, [
        `${upkeepSource} sha256:older after 003_employees_room_for_updates.sql`,
        `${upkeepSource} `,
      ]);
      expect(await db.query('SELECT count(*)::int AS n FROM first_name_pieces')).toEqual([{ n: 4 }]);

      expect(await migrate(db)).toEqual(['004_first_name_pieces_without_last_name.sql', '009_name_piece_keys_in_byte_order.sql', upkeepSource]);
      expect(await describeStructure(db)).toBe(committed);
      const { kept, rebuilt } = await derivedDataAndRebuild(db);
      // "ada" once per person: the first person's two last names are one entry now.
      expect(kept.first_name_pieces).toHaveLength(3);
      expect(kept).toEqual(rebuilt);
    } finally {
      await populated.drop();
    }
  });

  it('carries a populated database over migration 009: the name pieces keyed in byte order, every entry kept', async () => {
    const populated = await throwawayDatabase(engine);
    try {
      const { db } = populated;
      for (const n of [1, 2, 3]) await writeEmployment(db, n);
      // The database as it stood before 009: the columns in the database's collation, the
      // person-order indexes under "C".
      for (const [table, included] of [
        ['last_name_pieces', 'company_id, last_name_folded, first_name_folded'],
        ['first_name_pieces', 'company_id, first_name_folded'],
      ] as const) {
        await db.query(`DROP INDEX ${table}_by_person`);
        await db.query(`ALTER TABLE ${table} ALTER COLUMN piece TYPE text COLLATE "default", ALTER COLUMN company_id TYPE text COLLATE "default"`);
        await db.query(`CREATE INDEX ${table}_by_person ON ${table} (piece COLLATE "C", person_created_at, person_id) INCLUDE (${included})`);
      }
      await db.query(`DELETE FROM schema_migrations WHERE version = '009_name_piece_keys_in_byte_order.sql'`);
      await db.query(`UPDATE schema_migrations SET version = $1 WHERE starts_with(version, $2)`, [
        `${upkeepSource} sha256:${upkeepChecksum} after 008_webhooks.sql`,
        `${upkeepSource} `,
      ]);
      expect(await describeStructure(db)).not.toBe(committed);
      const before = (await derivedDataAndRebuild(db)).kept;

      expect(await migrate(db)).toEqual(['009_name_piece_keys_in_byte_order.sql', upkeepSource]);
      expect(await describeStructure(db)).toBe(committed);
      const { kept, rebuilt } = await derivedDataAndRebuild(db);
      expect(kept.last_name_pieces.length).toBeGreaterThan(0);
      expect(kept).toEqual(before);
      expect(kept).toEqual(rebuilt);
    } finally {
      await populated.drop();
    }
  });

  it('needs no extension: the name pieces and dictionaries replaced pg_trgm and btree_gin', () => {
    expect(committed).toContain('-- Extensions: none.');
  });
});
