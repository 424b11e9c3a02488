// `npm start`: the service on its configured database (embedded PGlite by default),
// with demo data in an empty development database, and a token to try it with.
import type { AddressInfo } from 'node:net';
import { type App, createApp } from './app.js';
import { describeProblem } from './cli/problems.js';
import { type Config, ConfigError, isLoopbackHost, loadConfig } from './config.js';
import type { DemoLoad } from './demo/load.js';

const usage = `usage: npm start   (node dist/server/main.js when built)
The service takes no arguments: every setting is an environment variable (PORT, HOST,
DATABASE_URL, PGLITE_DATA_DIR, APP_ENV…), each with its default in docs/operating/configuration.md.`;

/** --help answered; any other argument refused, since the service would ignore it: `npm start -- --port 4000` serving on 3000 is a likely mistake. */
function checkArguments(argv: string[]): void {
  if (!argv.length) return;
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  throw new ConfigError(
    `unexpected argument "${argv[0]}": the service takes no arguments; set environment variables instead (PORT=4000 npm start), listed in docs/operating/configuration.md`,
  );
}

async function main(): Promise<void> {
  checkArguments(process.argv.slice(2));
  const config = loadConfig();
  const app = await createApp(config);
  const demo = await demoData(app, config);
  const url = await app.listen();
  const { address, port } = app.server.address() as AddressInfo;
  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : config.pgliteDataDir ? `PGlite in ${config.pgliteDataDir}` : 'PGlite in memory';
  app.logger.info({ url, address, port, environment: config.environment, database, draftsEnabled: config.draftsEnabled }, 'listening');
  if (demo) process.stdout.write(banner(config, demo, url, `${address.includes(':') ? `[${address}]` : address}:${port}`, database));
  stopOnSignals(app, config);
}

/**
 * The demo data where it is wanted. The demo tokens are published in the README: on an
 * address other than loopback they are left out, and a database that already holds them
 * is refused, unless DEMO_ON_ALL_INTERFACES says to serve them anyway.
 */
async function demoData(app: App, config: Config): Promise<DemoLoad | undefined> {
  const exposed = !isLoopbackHost(config.host) && !config.demoOnAllInterfaces;
  // The demo loader brings the importer and the demo dataset: loaded only where it runs.
  const { activeDemoCredentials, loadDemoIfEmpty } = await import('./demo/load.js');
  const demo = config.loadDemoData ? await loadDemoIfEmpty(app.db, config.defaultPhoneRegion, !exposed) : undefined;
  const served = exposed ? await activeDemoCredentials(app.db) : [];
  if (served.length) {
    throw new ConfigError(
      `HOST=${config.host} is reachable from other machines, and this database holds the demo tokens the README publishes (${served.join(', ')}): ` +
        'revoke them (npm run credentials -- list, then revoke <id>), listen on 127.0.0.1, or set DEMO_ON_ALL_INTERFACES=1 to serve them anyway',
    );
  }
  return demo;
}

function banner(config: Config, demo: DemoLoad, url: string, bound: string, database: string): string {
  const [token] = demo.tokens;
  const lines = [
    '',
    `Person and Employment Lookup Service (${config.environment}) on ${url} (bound to ${bound}), ${database}`,
    demo.loaded ? `Demo data loaded: ${demo.summary}` : 'Demo data already present.',
    '',
  ];
  if (!token) {
    lines.push(
      `Demo tokens not loaded: HOST=${config.host} is reachable from other machines and the README publishes them.`,
      'Create a credential (npm run credentials -- create <name> <companyId>... --fields <groups> --purpose "<why>"), or set DEMO_ON_ALL_INTERFACES=1.',
      '',
    );
    return `${lines.join('\n')}\n`;
  }
  const width = Math.max(...demo.tokens.map((t) => t.token.length));
  const nameWidth = Math.max(...demo.tokens.map((t) => t.name.length));
  lines.push(
    'Demo tokens (development only; a field group a token does not read is never sent):',
    ...demo.tokens.map((t) => `  ${t.token.padEnd(width)}  ${t.name.padEnd(nameWidth)}  reads ${t.fields}`),
    '',
    'Try:',
    `  curl -s -H "Authorization: Bearer ${token.token}" ${url}/v1/companies/acme-corp/hello`,
    `  curl -s -H "Authorization: Bearer ${token.token}" -H "Content-Type: application/json" -d '{"lastName":"dur"}' ${url}/v1/persons/search`,
    `  open ${url}/docs`,
    '',
  );
  if (config.corsLoopback)
    lines.push('Browsers: pages on http://localhost:<any port> or http://127.0.0.1:<any port> may call it (development only; CORS_ORIGINS adds others).', '');
  return `${lines.join('\n')}\n`;
}

function stopOnSignals(app: App, config: Config): void {
  const { logger } = app;
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

// A configuration or database problem is one line (the commands say it alike); anything
// else is a fault of the program, and its stack is what a report of it needs.
main().catch((error) => {
  const { line, known } = describeProblem(error);
  process.stderr.write(known ? `${line}\n` : `failed to start: ${error instanceof Error ? error.stack : line}\n`);
  process.exit(1);
});
