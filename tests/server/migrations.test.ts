// The schema is one baseline migration plus whatever comes after it, and
// server/db/structure.sql is what they produce: migrating an empty database from scratch
// gives exactly that file, on each engine (`npm run db:structure` rewrites it after a
// migration is added). Migrating again changes nothing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.js';
import { describeStructure } from '../../server/db/structure.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const committed = readFileSync(new URL('../../server/db/structure.sql', import.meta.url), 'utf8');

describe.each(engines)('migrating from scratch on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine, { migrate: false });
  });
  afterAll(() => database?.drop());

  it('gives exactly server/db/structure.sql (run `npm run db:structure` after adding a migration)', async () => {
    expect(await migrate(database.db)).toContain('001_baseline.sql');
    expect(await describeStructure(database.db)).toBe(committed);
  });

  it('applies nothing the second time', async () => {
    expect(await migrate(database.db)).toEqual([]);
    expect(await describeStructure(database.db)).toBe(committed);
  });

  it('needs no extension: the name pieces and dictionaries replaced pg_trgm and btree_gin', () => {
    expect(committed).toContain('-- Extensions: none.');
  });
});
