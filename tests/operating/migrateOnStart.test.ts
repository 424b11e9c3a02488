// MIGRATE_ON_START=false (the migration runs as a step of its own): the service, started as
// a process, refuses a database whose schema is behind in one line and changes nothing, and
// serves one that is current.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate, pendingSteps } from '../../server/db/schema/migrate.js';
import { contractCall } from '../helpers/call.js';
import { FROM_SOURCE, startChildServer } from '../helpers/childServer.js';
import { engines, openMigratedDataDir, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const run = promisify(execFile);

/** The service from source with `env`, expected to exit: its exit code and stderr. */
function startExpectingExit(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return run(process.execPath, FROM_SOURCE, { env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', ...env }, timeout: 90_000 }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error) => ({ code: error.code as number, stderr: error.stderr as string }),
  );
}

describe.each(engines)('MIGRATE_ON_START=false on %s', (engine) => {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-migrate-on-start-'));
  let database: ThrowawayDatabase | undefined;
  let env: Record<string, string>;
  /** The database in this process: PostgreSQL's stays open, PGlite's directory is opened when no service holds it. */
  const withDb = async <T>(work: (db: Database) => Promise<T>): Promise<T> => {
    const db = database?.db ?? (await openDatabase({ pgliteDataDir: join(dir, 'db') }));
    try {
      return await work(db);
    } finally {
      if (!database) await db.close();
    }
  };
  beforeAll(async () => {
    const base = { MIGRATE_ON_START: 'false', DEMO_DATA: 'false', AUDIT_SPOOL_DIR: join(dir, 'spool') };
    if (engine === 'postgres') {
      database = await throwawayDatabase('postgres');
      env = { ...base, DATABASE_URL: database.url! };
    } else {
      await (await openMigratedDataDir(join(dir, 'db'))).close();
      env = { ...base, PGLITE_DATA_DIR: join(dir, 'db') };
    }
    // Behind by one step: the upkeep source is due again, as after a release that edits it.
    await withDb((db) => db.query(`DELETE FROM schema_migrations WHERE version LIKE 'derived/upkeep.sql %'`));
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a schema that is behind, in one line, and changes nothing', async () => {
    const started = await startExpectingExit(env);
    expect(started.code).toBe(1);
    expect(started.stderr.trimEnd().split('\n')).toEqual([
      'configuration error: MIGRATE_ON_START=false and the database schema is behind this release (pending: derived/upkeep.sql): run the migration first (node dist/server/cli/migrate.js, or npm run migrate)',
    ]);
    expect(await withDb(pendingSteps)).toEqual(['derived/upkeep.sql']);
  }, 120_000);

  it('serves once the schema is current', async () => {
    expect(await withDb(migrate)).toEqual(['derived/upkeep.sql']);
    const server = await startChildServer(env);
    try {
      const call = contractCall(server.url);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect((await call('GET', '/v1/companies/acme-corp/hello')).status).toBe(401);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe.runIf(process.env.DATABASE_URL)('MIGRATE_ON_START=false on a PostgreSQL database never migrated', () => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase('postgres', { migrate: false });
  }, 60_000);
  afterAll(() => database?.drop());

  it('names every step it lacks and creates nothing, not even schema_migrations', async () => {
    const started = await startExpectingExit({ MIGRATE_ON_START: 'false', DEMO_DATA: 'false', DATABASE_URL: database.url! });
    expect(started.code).toBe(1);
    expect(started.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(started.stderr).toMatch(/\(pending: 001_baseline\.sql, .*derived\/upkeep\.sql\)/);
    const tables = await database.db.query(`SELECT 1 FROM pg_tables WHERE schemaname = 'public'`);
    expect(tables).toEqual([]);
  }, 120_000);
});
