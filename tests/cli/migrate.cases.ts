// `npm run migrate` as an operator runs it, as a process, on a database of each engine: on
// a new one it applies every migration and the upkeep, on a current one nothing. Run by
// migrate.test.ts on one engine and migrate.slow.test.ts on the other (commandEngines).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { pendingSteps } from '../../server/db/schema/migrate.js';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const lines = (text: string) => text.trimEnd().split('\n');

/** The migration command on each of `engines` (none: a skipped placeholder). */
export function migrateCommand(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'npm run migrate on %s', placeholder: 'npm run migrate' }, (engine) => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-migrate-'));
    let database: ThrowawayDatabase | undefined;
    let env: NodeJS.ProcessEnv;
    beforeAll(async () => {
      if (engine === 'postgres') {
        database = await throwawayDatabase('postgres', { migrate: false });
        env = { ...process.env, DATABASE_URL: database.url };
      } else {
        env = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: join(dir, 'db') };
      }
    }, 60_000);
    afterAll(async () => {
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** The command's database, opened in this process after the command has exited. */
    async function pendingNow(): Promise<string[]> {
      const db = database?.db ?? (await openDatabase({ pgliteDataDir: join(dir, 'db') }));
      try {
        return await pendingSteps(db);
      } finally {
        if (!database) await db.close();
      }
    }

    it('applies every migration and the upkeep to a new database, then finds nothing to do', async () => {
      const first = await runCommand('migrate', [], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toBe('');
      expect(lines(first.stdout)).toHaveLength(1);
      expect(first.stdout).toMatch(/^migrated (PostgreSQL|PGlite in \S+): applied 001_baseline\.sql, .*derived\/upkeep\.sql\n$/);
      expect(await pendingNow()).toEqual([]);

      const again = await runCommand('migrate', [], env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^(PostgreSQL|PGlite in \S+) is up to date: nothing to apply\n$/);
    }, 120_000);

    it('applies the upkeep alone when only it is due', async () => {
      const db = database?.db ?? (await openDatabase({ pgliteDataDir: join(dir, 'db') }));
      await db.query(`DELETE FROM schema_migrations WHERE version LIKE 'derived/upkeep.sql %'`);
      if (!database) await db.close();
      const run = await runCommand('migrate', [], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/: applied derived\/upkeep\.sql\n$/);
      expect(await pendingNow()).toEqual([]);
    }, 120_000);
  });
}
