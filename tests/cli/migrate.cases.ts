// `npm run migrate` as an operator runs it, as a process, on a database of each engine: on
// a new one it applies every migration and the upkeep, on a current one nothing. Run by
// migrate.test.ts on one engine and migrate.slow.test.ts on the other (commandEngines).
import { expect, it } from 'vitest';
import type { Queryable } from '../../server/db/engines/database.js';
import { pendingSteps } from '../../server/db/schema/migrate.js';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine, useCommandDatabase } from '../helpers/databases.js';

const lines = (text: string) => text.trimEnd().split('\n');

/** The migration command on each of `engines` (none: a skipped placeholder). */
export function migrateCommand(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'npm run migrate on %s', placeholder: 'npm run migrate' }, (engine) => {
    const database = useCommandDatabase(engine, 'lookup-migrate-');
    /** What is left to apply, read after the command has exited. */
    const pendingNow = () => database.opened(pendingSteps);

    it('applies every migration and the upkeep to a new database, then finds nothing to do', async () => {
      const first = await runCommand('migrate', [], database.env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toBe('');
      expect(lines(first.stdout)).toHaveLength(1);
      expect(first.stdout).toMatch(/^migrated (PostgreSQL|PGlite in \S+): applied 001_baseline\.sql, .*derived\/upkeep\.sql\n$/);
      expect(await pendingNow()).toEqual([]);

      const again = await runCommand('migrate', [], database.env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^(PostgreSQL|PGlite in \S+) is up to date: nothing to apply\n$/);
    }, 120_000);

    it('applies the upkeep alone when only it is due', async () => {
      await database.opened((db) => db.query(`DELETE FROM schema_migrations WHERE version LIKE 'derived/upkeep.sql %'`));
      const run = await runCommand('migrate', [], database.env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/: applied derived\/upkeep\.sql\n$/);
      expect(await pendingNow()).toEqual([]);
    }, 120_000);

    it("leaves a newer build's migrations and upkeep as they are, and says so", async () => {
      // As a newer build leaves the database: one more migration, and its upkeep recorded after it.
      const newerUpkeep = 'derived/upkeep.sql sha256:0000 after 999_from_a_newer_build.sql';
      const upkeepRow = (db: Queryable) => db.query<{ version: string }>(`SELECT version FROM schema_migrations WHERE version LIKE 'derived/upkeep.sql %'`);
      await database.opened(async (db) => {
        await db.query(`INSERT INTO schema_migrations (version) VALUES ('999_from_a_newer_build.sql')`);
        await db.query(`UPDATE schema_migrations SET version = $1 WHERE version LIKE 'derived/upkeep.sql %'`, [newerUpkeep]);
      });
      const run = await runCommand('migrate', [], database.env);
      expect(run.code, run.stderr).toBe(0);
      expect(lines(run.stdout)).toEqual([
        expect.stringMatching(/ is up to date: nothing to apply$/),
        expect.stringMatching(
          / also holds migrations of a newer build \(999_from_a_newer_build\.sql\): this build's own are all applied, and the newer build's derived\/upkeep\.sql is left as it wrote it$/,
        ),
      ]);
      expect(await database.opened(upkeepRow)).toEqual([{ version: newerUpkeep }]);
      // This build's own state restored for the tests after this one.
      await database.opened(async (db) => {
        await db.query(`DELETE FROM schema_migrations WHERE version IN ('999_from_a_newer_build.sql', $1)`, [newerUpkeep]);
      });
      expect((await runCommand('migrate', [], database.env)).stdout).toMatch(/: applied derived\/upkeep\.sql\n$/);
    }, 120_000);
  });
}
