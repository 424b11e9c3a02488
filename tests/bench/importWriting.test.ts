// The searches count the service's throughput during a change from when the import's
// transaction is open (bench/imports/importWriting.ts): not while its process starts, nor
// for a connection of the import's that has begun nothing, nor for another database's.
import pg from 'pg';
import { expect, it } from 'vitest';
import { whenImportWrites } from '../../bench/imports/importWriting.js';
import { describeOnEngines, engines, throwawayDatabase } from '../helpers/databases.js';

const never = new Promise(() => {});
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeOnEngines(
  engines.filter((e) => e === 'postgres'),
  { perEngine: "an import's open transaction seen on %s", placeholder: "an import's open transaction seen (PostgreSQL)" },
  (engine) => {
    it('resolves once a connection of the import has a transaction open, and not before', async () => {
      const made = await throwawayDatabase(engine, { migrate: false });
      const bench = made.db;
      const importing = new pg.Client({ connectionString: made.url!, application_name: 'lookup-import' });
      const elsewhere = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: 'lookup-import' });
      try {
        await importing.connect();
        await elsewhere.connect();
        await elsewhere.query('BEGIN');
        await elsewhere.query('SELECT 1');
        // Connected, and another database's import writing: not this one's.
        await expect(whenImportWrites(bench, after(300))).resolves.toBe(false);
        await importing.query('BEGIN');
        await importing.query('SELECT 1');
        await expect(whenImportWrites(bench, never)).resolves.toBe(true);
        await importing.query('COMMIT');
        await expect(whenImportWrites(bench, after(300))).resolves.toBe(false);
      } finally {
        await importing.end();
        await elsewhere.end();
        await made.drop();
      }
    });
  },
);
