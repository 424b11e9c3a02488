// `npm run migrate` as an operator runs it: on one engine here (migrate.cases.ts, the other
// in migrate.slow.test.ts), and each mistake (an argument, no database, an unreachable one,
// a step that fails) as one line and exit 1, with nothing half-written.
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingSteps } from '../../server/db/schema/migrate.js';
import { runCommand } from '../helpers/commands.js';
import { commandEngines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { migrateCommand } from './migrate.cases.js';

const oneLine = (text: string) => text.trimEnd().split('\n');

migrateCommand(commandEngines.fast);

describe('npm run migrate refuses, in one line', () => {
  const quiet = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: '' };

  it('an argument, without touching a database', async () => {
    const run = await runCommand('migrate', ['now'], quiet);
    expect(run.code).toBe(1);
    expect(oneLine(run.stderr)).toEqual(['unexpected argument "now": the migration takes no arguments (--help says more)']);
  });

  it('no database to migrate', async () => {
    const run = await runCommand('migrate', [], quiet);
    expect(run.code).toBe(1);
    expect(oneLine(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/set DATABASE_URL .* or PGLITE_DATA_DIR/);
  });

  it('a PostgreSQL that does not answer', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    // One attempt: the wait for a database that starts late is startup-errors.test.ts's.
    const run = await runCommand('migrate', [], { ...quiet, DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/lookup`, DATABASE_CONNECT_TIMEOUT_MS: '0' });
    expect(run.code).toBe(1);
    expect(oneLine(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/^database error: DATABASE_URL: cannot connect to postgres@127\.0\.0\.1:\d+\/lookup: connection refused/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe.runIf(process.env.DATABASE_URL)('npm run migrate, a step that fails (PostgreSQL)', () => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase('postgres', { migrate: false });
  }, 60_000);
  afterAll(() => database?.drop());

  it('is rolled back, recorded as not applied, and reported in one line', async () => {
    // A table the baseline creates, already there: the baseline's CREATE TABLE fails.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('CREATE TABLE persons (id int)');
    await client.end();
    const run = await runCommand('migrate', [], { ...process.env, DATABASE_URL: database.url });
    expect(run.code).toBe(1);
    expect(oneLine(run.stderr)).toEqual(['migration failed: relation "persons" already exists']);
    expect(await pendingSteps(database.db)).toContain('001_baseline.sql');
    const tables = await database.db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
    expect(tables.map((t) => t.name)).toEqual(['persons', 'schema_migrations']);
  }, 60_000);
});
