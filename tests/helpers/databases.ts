// Throwaway databases for tests: an in-memory PGlite, or, where DATABASE_URL is set, a
// fresh PostgreSQL database created for this test file and dropped after it. Runs and
// files never share data. A migrated one starts from the run's migrated template
// (pgliteTemplate.ts, postgresTemplate.ts); migrate() then finds nothing to do.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { smallDataset } from '../fixtures/small.js';

export type Engine = 'pglite' | 'postgres';

/** The engines this run can test: PGlite always, PostgreSQL when DATABASE_URL is set. */
export const engines: Engine[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * Where a flow is run through the operator commands as processes (each paying tsx's and
 * the database's start-up): `npm test` runs it on one engine, PostgreSQL where it is set,
 * and `npm run test:all` on the other (the `*.slow.test.ts` beside each such file).
 */
export const commandEngines: { fast: Engine[]; slow: Engine[] } = process.env.DATABASE_URL
  ? { fast: ['postgres'], slow: ['pglite'] }
  : { fast: ['pglite'], slow: [] };

/**
 * `body` in a describe block on each of `engines`, titled `titles.perEngine` (`%s` names the
 * engine). With none (a `.slow.test.ts` where no PostgreSQL is set, `commandEngines.slow`),
 * one skipped test named after `titles.placeholder` stands in: vitest fails a file with no test.
 */
export function describeOnEngines(engines: readonly Engine[], titles: { perEngine: string; placeholder: string }, body: (engine: Engine) => void): void {
  if (!engines.length) {
    it.skip(`${titles.placeholder}: on PGlite in npm test where no PostgreSQL is set`, () => {});
    return;
  }
  describe.each([...engines])(titles.perEngine, body);
}

export interface ThrowawayDatabase {
  db: Database;
  /** Connection string of the PostgreSQL database (undefined for PGlite). */
  url?: string;
  drop(): Promise<void>;
}

let migratedDump: Blob | undefined;
const migratedCluster = () => (migratedDump ??= new Blob([readFileSync(inject('pgliteTemplate'))]));

/**
 * A migrated embedded database in `dataDir` (a directory as PGLITE_DATA_DIR names one; it
 * must not hold one yet), loaded from the run's migrated cluster rather than made by
 * initdb, for a test whose commands or service processes then open it. Open on return.
 */
export function openMigratedDataDir(dataDir: string): Promise<Database> {
  return openDatabase({ pgliteDataDir: dataDir, pgliteLoadDataDir: migratedCluster() });
}

export async function throwawayDatabase(engine: Engine, options: { migrate?: boolean; statementTimeoutMs?: number } = {}): Promise<ThrowawayDatabase> {
  if (engine === 'pglite') {
    // A migrated one starts from the run's migrated cluster (pgliteTemplate.ts); migrate()
    // then finds nothing to do. An unmigrated one starts empty.
    const db = await openDatabase(options.migrate === false ? {} : { pgliteLoadDataDir: migratedCluster() });
    if (options.migrate !== false) await migrate(db);
    return { db, drop: () => db.close() };
  }
  const adminUrl = process.env.DATABASE_URL!;
  const name = `lookup_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // A migrated one is copied from the run's migrated database (postgresTemplate.ts).
  await admin.query(options.migrate === false ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), poolMax: 5, statementTimeoutMs: options.statementTimeoutMs });
  if (options.migrate !== false) await migrate(db);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * A throwaway database for the tests around it (a file or a describe block), holding
 * `records` (the small dataset unless told): made in beforeAll, dropped in afterAll.
 * Its `db` and `url` are read inside tests and hooks, once it is made.
 */
export function useThrowawayDatabase(engine: Engine, records: () => ImportRecord[] = smallDataset): ThrowawayDatabase {
  let database: ThrowawayDatabase | undefined;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    await importRecords(database.db, records(), 'US');
  });
  afterAll(() => database?.drop());
  const made = () => database ?? expect.fail('the throwaway database is made in beforeAll: read it inside a test or hook');
  return {
    get db() {
      return made().db;
    },
    get url() {
      return made().url;
    },
    drop: () => made().drop(),
  };
}

/** A database the operator commands run on as processes (useCommandDatabase). */
export interface CommandDatabase {
  /** A directory of the tests' own (the embedded database is its db/), removed after them. */
  readonly dir: string;
  /** The environment that points a command at the database. */
  readonly env: NodeJS.ProcessEnv;
  /** `use` on the database opened in this process; the embedded one is one process's at a time, so never while a command runs. */
  opened<T>(use: (db: Database) => Promise<T>): Promise<T>;
}

/**
 * A new, unmigrated database for the operator commands the tests around it run, as an
 * operator would: a throwaway PostgreSQL database, or a persistent embedded one
 * (PGLITE_DATA_DIR) in a directory named after `prefix`. Made in beforeAll, removed in afterAll.
 */
export function useCommandDatabase(engine: Engine, prefix: string): CommandDatabase {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pgliteDataDir = join(dir, 'db');
  let postgres: ThrowawayDatabase | undefined;
  let env: NodeJS.ProcessEnv | undefined;
  beforeAll(async () => {
    if (engine === 'postgres') {
      postgres = await throwawayDatabase('postgres', { migrate: false });
      env = { ...process.env, DATABASE_URL: postgres.url };
    } else {
      env = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: pgliteDataDir };
    }
  }, 60_000);
  afterAll(async () => {
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    get env() {
      return env ?? expect.fail('the command database is made in beforeAll: read its env inside a test or hook');
    },
    async opened(use) {
      if (postgres) return use(postgres.db);
      const db = await openDatabase({ pgliteDataDir });
      try {
        return await use(db);
      } finally {
        await db.close();
      }
    },
  };
}
