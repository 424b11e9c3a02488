// A server built from configuration alone, as `npm start` builds it: it opens its own
// database pool from DATABASE_URL and the PG_* settings (tests/helpers/server.ts hands the
// app an already-open pool, which would bypass exactly the limits tested here).
import { type App, type AppOverrides, createApp } from '../../server/app.js';
import { type Config, loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/observability/logger.js';
import { type Call, contractCall } from './call.js';

export interface ConfiguredServer {
  url: string;
  app: App;
  config: Config;
  call: Call;
  close(): Promise<void>;
}

export const quietDefaults = {
  PORT: '0',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_SECOND: '100000',
  RATE_LIMIT_BURST: '100000',
  AUTH_FAILURES_PER_MINUTE: '100000',
  DEMO_DATA: 'false',
};

/** `overrides.db`: an open database the caller owns (PGlite tests); otherwise the app opens its own from `env`. */
export async function startConfiguredServer(env: Record<string, string>, overrides: AppOverrides = {}): Promise<ConfiguredServer> {
  const config = loadConfig({ ...quietDefaults, ...env });
  const app = await createApp(config, { ...overrides, logger: overrides.logger ?? createLogger(config.logLevel) });
  const url = await app.listen();
  return { url, app, config, call: contractCall(url), close: () => app.close() };
}
