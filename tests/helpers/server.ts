// Starts the real server in-process on a free port, on a throwaway database, and gives
// tests a `call` that speaks HTTP to it and checks every response against the contract.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, createApp } from '../../server/app.js';
import { type Config, loadConfig } from '../../server/config.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { createLogger } from '../../server/observability/logger.js';
import { contractCall } from './call.js';
import { type Engine, type ThrowawayDatabase, throwawayDatabase } from './databases.js';

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as it is, without JSON encoding. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestServer {
  url: string;
  app: App;
  config: Config;
  database: ThrowawayDatabase;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  /** Ships the access audit's spool (AUDIT_DURABILITY=spool) into access_audit; nothing to do otherwise. */
  auditShipped(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  engine?: Engine;
  records?: ImportRecord[];
  /** Environment variables as an operator would set them (APP_ENV, RATE_LIMIT_BURST, ...). */
  env?: Record<string, string>;
  /** Reuse a database (e.g. several servers on one PostgreSQL). */
  database?: ThrowawayDatabase;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // Each server spools its audit into a directory of its own: test files run in parallel
  // on databases of their own, and an instance adopts the files of its own database only.
  const spoolDir = options.env?.AUDIT_SPOOL_DIR ?? mkdtempSync(join(tmpdir(), 'audit-spool-'));
  const config = loadConfig({
    AUDIT_SPOOL_DIR: spoolDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    AUTH_FAILURES_PER_MINUTE: '100000',
    DEMO_DATA: 'false',
    ...options.env,
  });
  const database = options.database ?? (await throwawayDatabase(options.engine ?? 'pglite'));
  if (options.records) await importRecords(database.db, options.records, config.defaultPhoneRegion);
  const app = await createApp(config, { db: database.db, logger: createLogger(config.logLevel) });
  const url = await app.listen();

  const call = contractCall(url);

  return {
    url,
    app,
    config,
    database,
    call,
    auditShipped: async () => app.auditShipper?.drain(),
    async close() {
      await app.close();
      if (!options.database) await database.drop();
      if (!options.env?.AUDIT_SPOOL_DIR) rmSync(spoolDir, { recursive: true, force: true });
    },
  };
}
