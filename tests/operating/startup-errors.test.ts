// A start that cannot work says why in one line, naming the variable and the cause, and
// exits 1: the rows of docs/operating/configuration.md's "When the start fails", run as an
// operator runs the service. The PostgreSQL rows use the local server of DATABASE_URL
// (a role and a database that do not exist on it); the closed port needs no server.
import { type AddressInfo, createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runServiceToExit } from '../helpers/commands.js';
import { databaseUrl } from '../helpers/environment.js';
import { docTable } from './docTables.js';

const rows = docTable('docs/operating/configuration.md', 'When the start fails');
const documentedServer = '127.0.0.1:5432';
const localServer = databaseUrl ? new URL(databaseUrl).host : undefined;

/** The row's variables, with the documented PostgreSQL address replaced by the local one. */
function environment(startedWith: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of startedWith.split(' ')) {
    const [name, ...value] = pair.split('=');
    env[name!] = value.join('=').replace(documentedServer, localServer ?? documentedServer);
  }
  return env;
}

/** What varies between runs: the seconds spent waiting. */
const normalized = (line: string) => line.replace(/after \d+\.\d s/, 'after N s');

describe.concurrent('a start refused for its configuration or database', () => {
  it('has documented rows for each kind of problem', () => {
    expect(rows.length).toBeGreaterThanOrEqual(7);
  });

  it.each(rows.map(([startedWith, says]) => [startedWith!, says!]))(
    '%s: one line, exit 1',
    async (startedWith, says) => {
      if (startedWith.includes(documentedServer) && !localServer) {
        if (process.env.CI === 'true') throw new Error('DATABASE_URL is needed for this row in CI');
        return;
      }
      const result = await runServiceToExit({ PATH: process.env.PATH, HOME: process.env.HOME, ...environment(startedWith) });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr.split('\n').filter(Boolean), 'one line on stderr').toHaveLength(1);
      expect(normalized(result.stderr.trim())).toBe(normalized(says.replace(documentedServer, localServer ?? documentedServer)));
      expect(result.stdout).not.toContain('"listening"');
    },
    120_000,
  );

  it('an argument (the service takes none): one line, exit 1; --help: the usage, exit 0', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    const flag = await runServiceToExit(env, 90_000, ['--port', '4000']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toBe(
      'configuration error: unexpected argument "--port": the service takes no arguments; set environment variables instead (PORT=4000 npm start), listed in docs/operating/configuration.md\n',
    );
    const help = await runServiceToExit(env, 90_000, ['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm start .*\nThe service takes no arguments/s);
    expect(help.stdout).not.toContain('listening');
  }, 120_000);

  it('a port already in use: one line naming PORT, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await runServiceToExit({ PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `configuration error: PORT=${port}: 127.0.0.1:${port} is already in use (another instance, or another program): stop it or choose another PORT\n`,
      );
    } finally {
      taken.close();
    }
  }, 120_000);

  // The local server trusts every password, so a refused one cannot be shown here; a role
  // that may not log in is refused the same way, at the same step, and not waited for.
  it.runIf(databaseUrl)(
    'a role that may not log in: one line at once, no waiting',
    async () => {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DO $$ BEGIN CREATE ROLE lookup_test_nologin NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
      await admin.end();
      const started = Date.now();
      const result = await runServiceToExit({
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: `postgres://lookup_test_nologin@${localServer}/postgres`,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `database error: DATABASE_URL: cannot connect to lookup_test_nologin@${localServer}/postgres: role "lookup_test_nologin" is not permitted to log in\n`,
      );
      expect(result.stdout).not.toContain('waiting for it');
      expect(Date.now() - started).toBeLessThan(30_000);
    },
    120_000,
  );

  it('waits for a database that is not up yet, as long as DATABASE_CONNECT_TIMEOUT_MS says', async () => {
    const started = Date.now();
    const result = await runServiceToExit({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/lookup',
      DATABASE_CONNECT_TIMEOUT_MS: '3000',
    });
    expect(result.code).toBe(1);
    expect(Date.now() - started).toBeGreaterThan(3_000);
    expect(result.stderr).toMatch(/gave up after 3\.\d s/);
    // One warning while it waits, not one per attempt.
    expect(result.stdout.match(/database not reachable yet; waiting for it/g)).toHaveLength(1);
  }, 120_000);
});
