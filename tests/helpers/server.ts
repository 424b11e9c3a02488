// Starts the real server in-process on a free port and gives tests a `call` that speaks
// HTTP to it and checks every response against the contract. The one way tests start the
// service in their own process (childServer.ts starts it as a process of its own).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, createApp } from '../../server/app.js';
import { type Config, loadConfig } from '../../server/config.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { createLogger, type Logger } from '../../server/observability/logger.js';
import { type Call, contractCall } from './call.js';
import { type Engine, type ThrowawayDatabase, throwawayDatabase } from './databases.js';

/**
 * What a test server runs with unless the test sets otherwise: no log output, rate and
 * authentication budgets no test reaches by accident, no demo data.
 */
export const quietEnvironment: Record<string, string> = {
  PORT: '0',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_SECOND: '100000',
  RATE_LIMIT_BURST: '100000',
  AUTH_FAILURES_PER_MINUTE: '100000',
  DEMO_DATA: 'false',
};

export interface ConfiguredServer {
  url: string;
  app: App;
  config: Config;
  call: Call;
  /** Ships the access audit's spool (AUDIT_DURABILITY=spool) into access_audit; nothing to do otherwise. */
  auditShipped(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServer extends ConfiguredServer {
  database: ThrowawayDatabase;
}

export interface TestServerOptions {
  engine?: Engine;
  /** Imported before the server starts. */
  records?: ImportRecord[];
  /** Environment variables as an operator would set them (APP_ENV, RATE_LIMIT_BURST, ...). */
  env?: Record<string, string>;
  /** Reuse a database (e.g. several servers on one PostgreSQL); the caller drops it. */
  database?: ThrowawayDatabase;
  /** Where the server logs (a capture, to read the lines); by default LOG_LEVEL's to stdout. */
  logger?: Logger;
}

/**
 * The server on a throwaway database of its own (dropped on close), or on `database`.
 * The app is handed that database's open pool.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await throwawayDatabase(options.engine ?? 'pglite'));
  const server = await start(options.env, options.logger, database, options.records);
  return {
    ...server,
    database,
    async close() {
      await server.close();
      if (!options.database) await database.drop();
    },
  };
}

/**
 * The server built from configuration alone, as `npm start` builds it: it opens its own
 * database pool from `env`'s DATABASE_URL and PG_* settings (the limits a handed-in pool
 * would bypass).
 */
export function startConfiguredServer(env: Record<string, string>, options: { logger?: Logger } = {}): Promise<ConfiguredServer> {
  return start(env, options.logger);
}

async function start(env: Record<string, string> = {}, logger?: Logger, database?: ThrowawayDatabase, records?: ImportRecord[]): Promise<ConfiguredServer> {
  // Each server spools its audit into a directory of its own: test files run in parallel
  // on databases of their own, and an instance adopts the files of its own database only.
  const spoolDir = env.AUDIT_SPOOL_DIR ?? mkdtempSync(join(tmpdir(), 'audit-spool-'));
  const config = loadConfig({ ...quietEnvironment, AUDIT_SPOOL_DIR: spoolDir, ...env });
  if (database && records) await importRecords(database.db, records, config.defaultPhoneRegion);
  const app = await createApp(config, { db: database?.db, logger: logger ?? createLogger(config.logLevel) });
  const url = await app.listen();
  return {
    url,
    app,
    config,
    call: contractCall(url),
    auditShipped: async () => app.auditShipper?.drain(),
    async close() {
      await app.close();
      if (!env.AUDIT_SPOOL_DIR) rmSync(spoolDir, { recursive: true, force: true });
    },
  };
}
