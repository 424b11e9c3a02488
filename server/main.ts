// `npm start`: the service on its configured database (embedded PGlite by default),
// with demo data in an empty development database, and a token to try it with.
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  const { logger } = app;
  // The demo loader brings the importer and the demo dataset: loaded only where it runs.
  const demo = config.loadDemoData ? await (await import('./demo/load.js')).loadDemoIfEmpty(app.db, config.defaultPhoneRegion) : undefined;
  const url = await app.listen();

  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : config.pgliteDataDir ? `PGlite in ${config.pgliteDataDir}` : 'PGlite in memory';
  logger.info({ url, environment: config.environment, database, draftsEnabled: config.draftsEnabled }, 'listening');
  if (demo) {
    const [token] = demo.tokens;
    process.stdout.write(
      `${[
        '',
        `Person and Employment Lookup Service (${config.environment}) on ${url}, ${database}`,
        demo.loaded ? `Demo data loaded: ${demo.summary}` : 'Demo data already present.',
        '',
        'Demo tokens (development only):',
        ...demo.tokens.map((t) => `  ${t.token}   ${t.name}`),
        '',
        'Try:',
        `  curl -s -H "Authorization: Bearer ${token!.token}" ${url}/v1/companies/acme-corp/hello`,
        `  curl -s -H "Authorization: Bearer ${token!.token}" -H "Content-Type: application/json" -d '{"lastName":"dur"}' ${url}/v1/persons/search`,
        `  open ${url}/docs`,
        '',
      ].join('\n')}\n`,
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'in-flight requests did not finish in time; exiting anyway');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    try {
      await app.close();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    clearTimeout(force);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  if (error instanceof ConfigError) process.stderr.write(`configuration error: ${error.message}\n`);
  else process.stderr.write(`failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
