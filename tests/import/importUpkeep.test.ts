// How an import keeps the derived data (server/db/import/upkeep.ts): into a database with
// no linked employment it fills every structure once, after its writes, with the
// per-statement upkeep off for its own transaction only; otherwise the per-statement
// upkeep follows each write. Either way the derived data equals a rebuild afterwards, and
// a failed fill leaves nothing behind. Into an empty database the indexes are built after
// the rows (server/db/import/deferredIndexes.ts) and come out as the migrations made them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedDataAndRebuild, readDerivedData } from '../../server/db/derived/index.js';
import { describeStructure } from '../../server/db/schema/structure.js';
import { ImportRejected, importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { employee, ids, smallDataset } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

async function expectDerivedEqualsRebuild(database: ThrowawayDatabase): Promise<void> {
  const { kept, rebuilt } = await derivedDataAndRebuild(database.db);
  expect(kept).toEqual(rebuilt);
}

describe.each(engines)('the upkeep an import takes on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('fills the derived data once when no employment is linked yet (unlinked ones only do not count)', async () => {
    const companyOnly: ImportRecord[] = [{ type: 'company', id: 'lonely', name: 'Lonely' }];
    const unlinked = employee({ id: randomUUID(), companyId: 'lonely', personId: null });
    expect((await importRecords(database.db, [...companyOnly, unlinked], 'US')).upkeep).toBe('fill');
    const summary = await importRecords(database.db, smallDataset(), 'US');
    expect(summary.upkeep).toBe('fill');
    const derived = await readDerivedData(database.db);
    expect(derived.last_name_pieces.length).toBeGreaterThan(0);
    expect(derived.people_by_credential_day.length).toBeGreaterThan(0);
    await expectDerivedEqualsRebuild(database);
  });

  it('keeps the per-statement upkeep once employments are linked', async () => {
    const summary = await importRecords(
      database.db,
      [employee({ id: ids.anaAcme, companyId: 'acme-corp', lastName: 'Renamed-Upkeep', personId: ids.emile })],
      'US',
    );
    expect(summary.upkeep).toBe('per-statement');
    expect(summary.employee.changed).toBe(1);
    await expectDerivedEqualsRebuild(database);
  });

  it('leaves the per-statement upkeep on for every other writer after a fill', async () => {
    const fresh = await throwawayDatabase(engine);
    try {
      expect((await importRecords(fresh.db, smallDataset(), 'US')).upkeep).toBe('fill');
      // A plain-SQL writer right after, on a connection the import may have used.
      await fresh.db.query("UPDATE employees SET last_name = 'Plainsql', last_name_folded = 'plainsql' WHERE person_id IS NOT NULL");
      const { kept, rebuilt } = await derivedDataAndRebuild(fresh.db);
      expect(kept).toEqual(rebuilt);
      expect(kept.last_name_dictionary).toEqual([{ folded: 'plainsql' }]);
    } finally {
      await fresh.drop();
    }
  });

  it('builds the indexes and keys of an initial load after its rows, as the migrations define them, keys checked', async () => {
    const fresh = await throwawayDatabase(engine);
    try {
      const migrated = await describeStructure(fresh.db);
      expect((await importRecords(fresh.db, smallDataset(), 'US')).upkeep).toBe('fill');
      expect(await describeStructure(fresh.db)).toBe(migrated);
      await expectDerivedEqualsRebuild(fresh);
      // The keys built again are keys: a second row with a stored id is refused.
      const [stored] = await fresh.db.query<{ id: string }>('SELECT id::text FROM employees LIMIT 1');
      await expect(fresh.db.query('INSERT INTO employees SELECT * FROM employees WHERE id = $1', [stored!.id])).rejects.toThrow(/duplicate key/);
      // So are the rollups' keys, built after the fill: a second count for a company's day is refused.
      await expect(fresh.db.query('INSERT INTO people_by_company_day SELECT * FROM people_by_company_day LIMIT 1')).rejects.toThrow(/duplicate key/);
      // The person's foreign key, added again after the rows, holds an employment's copy of its person's times.
      await expect(
        fresh.db.query("UPDATE employees SET person_updated_at = person_updated_at + interval '1 second' WHERE id = $1", [stored!.id]),
      ).rejects.toThrow(/employees_person/);
      // And the people an initial load wrote are found through those indexes.
      const [row] = await fresh.db.query<{ n: number }>("SELECT count(*)::int AS n FROM employees WHERE last_name_folded = 'durand'");
      expect(row!.n).toBeGreaterThan(0);
    } finally {
      await fresh.drop();
    }
  });

  it('files a name that holds a piece more than once under each piece once, filled or kept', async () => {
    const fresh = await throwawayDatabase(engine);
    try {
      const repeated = employee({ id: randomUUID(), companyId: 'acme-corp', personId: ids.emile, lastName: 'Nanananas', firstName: 'Annanna' });
      expect((await importRecords(fresh.db, [...smallDataset(), repeated], 'US')).upkeep).toBe('fill');
      const pieces = async () =>
        fresh.db.query<{ table: string; piece: string }>(
          `SELECT 'last' AS table, piece FROM last_name_pieces WHERE last_name_folded = 'nanananas'
           UNION ALL SELECT 'first', piece FROM first_name_pieces WHERE first_name_folded = 'annanna' ORDER BY 1, 2`,
        );
      const expected = [
        ...['ann', 'nan', 'nna'].map((piece) => ({ table: 'first', piece })),
        ...['ana', 'nan', 'nas'].map((piece) => ({ table: 'last', piece })),
      ];
      expect(await pieces()).toEqual(expected);
      // The per-statement upkeep files the same entries when the name arrives later.
      await importRecords(fresh.db, [{ ...repeated, lastName: 'Other' }], 'US');
      await importRecords(fresh.db, [repeated], 'US');
      expect(await pieces()).toEqual(expected);
      await expectDerivedEqualsRebuild(fresh);
    } finally {
      await fresh.drop();
    }
  });

  it('writes nothing, derived data included, when a fill import is refused', async () => {
    const fresh = await throwawayDatabase(engine);
    try {
      const refused = [...smallDataset(), employee({ id: randomUUID(), companyId: 'no-such-company', personId: ids.emile })];
      await expect(importRecords(fresh.db, refused, 'US')).rejects.toBeInstanceOf(ImportRejected);
      const derived = await readDerivedData(fresh.db);
      expect(Object.values(derived).every((rows) => rows.length === 0)).toBe(true);
      expect(await fresh.db.query('SELECT 1 FROM employees')).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });
});
