// The import bench refuses to run beside another client of its database (a service left
// running there once took its webhook deliveries): on a throwaway PostgreSQL, a second
// session is named, and once it has left the run may start.
import pg from 'pg';
import { expect, it } from 'vitest';
import { refuseOtherSessions } from '../../bench/imports/otherSessions.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { describeOnEngines, engines, throwawayDatabase } from '../helpers/databases.js';

describeOnEngines(
  engines.filter((e) => e === 'postgres'),
  { perEngine: 'the import bench with another session on %s', placeholder: 'the import bench with another session (PostgreSQL)' },
  (engine) => {
    it('names the other session, then lets the run start once it has gone', async () => {
      const made = await throwawayDatabase(engine, { migrate: false });
      // The bench's own single connection, as its run opens it; the maker's is closed first.
      await made.db.close();
      const bench = await openDatabase({ databaseUrl: made.url!, poolMax: 1 });
      const other = new pg.Client({ connectionString: made.url!, application_name: 'left-running' });
      let otherOpen = false;
      try {
        await refuseOtherSessions(bench);
        await other.connect();
        otherOpen = true;
        const refused = await refuseOtherSessions(bench, 300).then(
          () => undefined,
          (error: Error) => error.message,
        );
        expect(refused).toMatch(/^1 other session\(s\) connected to lookup_test_\w+: pid \d+ since \S+ \(left-running\)/);
        expect(refused).toContain('stop it (or SELECT pg_terminate_backend(pid)) and run again');
        await other.end();
        otherOpen = false;
        await expect(refuseOtherSessions(bench)).resolves.toBeUndefined();
      } finally {
        if (otherOpen) await other.end();
        await bench.close();
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${new URL(made.url!).pathname.slice(1)} WITH (FORCE)`);
        await admin.end();
      }
    });
  },
);
