// The demo tokens, which the README publishes, are served on loopback only: on another
// HOST the demo data is loaded without them, a database holding them is refused, and
// DEMO_ON_ALL_INTERFACES=1 serves them anyway. The listening line names the address bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { demoCredentials } from '../../server/demo/credentials.js';
import { formatFieldSet } from '../../server/domain/fieldGroups.js';
import { contractCall } from '../helpers/call.js';
import { type ChildServer, startChildServer } from '../helpers/childServer.js';
import { runServiceToExit } from '../helpers/commands.js';

const demoToken = demoCredentials[0]!.token;

/** Waits until the server's output holds `text` (the start banner is written after it listens). */
const printed = (server: ChildServer, text: string) => vi.waitFor(() => expect(server.output()).toContain(text), { timeout: 30_000, interval: 100 });

describe('development on an address other than loopback', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-demo-host-'));
  const servers: ChildServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (env: Record<string, string>) => {
    // Each start loads the demo dataset, which takes minutes on a busy machine.
    const server = await startChildServer(env, 300_000);
    servers.push(server);
    return server;
  };

  it('loads the demo data without its tokens, says so, and logs the address it bound', async () => {
    const server = await start({ HOST: '0.0.0.0' });
    const listening = await server.waitForLog('listening');
    expect(listening.address).toBe('0.0.0.0');
    expect(listening.port).toBe(Number(new URL(server.url).port));
    await printed(server, 'Demo tokens not loaded: HOST=0.0.0.0 is reachable from other machines');
    expect(server.output()).not.toContain(demoToken);
    expect((await contractCall(server.url)('GET', '/v1/companies/acme-corp/hello', { token: demoToken })).status).toBe(401);
    await server.stop();
  }, 360_000);

  it('serves them with DEMO_ON_ALL_INTERFACES=1', async () => {
    const server = await start({ HOST: '0.0.0.0', DEMO_ON_ALL_INTERFACES: '1' });
    // The banner with the tokens follows the `listening` log line.
    await printed(server, demoToken);
    // Every demo token, with the field groups it reads.
    for (const c of demoCredentials) expect(server.output()).toMatch(new RegExp(`  ${c.token} +${c.name} +reads ${formatFieldSet(c.fields)}\n`));
    expect((await contractCall(server.url)('GET', '/v1/companies/acme-corp/hello', { token: demoToken })).status).toBe(200);
    await server.stop();
  }, 360_000);

  it('refuses to start on a database that already holds them', async () => {
    const dataDir = join(dir, 'db');
    const loopback = await start({ PGLITE_DATA_DIR: dataDir });
    expect((await loopback.waitForLog('listening')).address).toBe('127.0.0.1');
    await printed(loopback, demoToken);
    loopback.process.kill('SIGTERM');
    await loopback.exited;
    const refused = await runServiceToExit({ PATH: process.env.PATH, HOME: process.env.HOME, PGLITE_DATA_DIR: dataDir, HOST: '0.0.0.0' }, 180_000);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'configuration error: HOST=0.0.0.0 is reachable from other machines, and this database holds the demo tokens the README publishes (demo: acme-corp only, demo: benefits tool, demo: every company, demo: globex and initech, demo: scheduling tool): revoke them (npm run credentials -- list, then revoke <id>), listen on 127.0.0.1, or set DEMO_ON_ALL_INTERFACES=1 to serve them anyway\n',
    );
  }, 480_000);
});
