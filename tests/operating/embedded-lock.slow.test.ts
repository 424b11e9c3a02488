// The service holds its embedded data directory: while it runs, every command and a second
// service on the same PGLITE_DATA_DIR are refused at once, naming the directory and the
// service's pid, and nothing is written; once it has crashed, a command takes the
// directory over, and the service sees that command's write at its next start.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecords } from '../../server/importing/index.js';
import { smallDataset } from '../fixtures/small.js';
import { contractCall } from '../helpers/call.js';
import { type ChildServer, startChildServer } from '../helpers/childServer.js';
import { runCommand, runServiceToExit } from '../helpers/commands.js';
import { openMigratedDataDir } from '../helpers/databases.js';

describe('a service on PGLITE_DATA_DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-embedded-'));
  const dataDir = join(dir, 'db');
  const serviceEnv = { PGLITE_DATA_DIR: dataDir, DEMO_DATA: 'false' };
  const env = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: dataDir };
  let server: ChildServer;
  beforeAll(async () => {
    const db = await openMigratedDataDir(dataDir);
    await importRecords(db, smallDataset(), 'US');
    await db.close();
    server = await startChildServer(serviceEnv);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses every command and a second service while it runs, naming the directory and its pid', async () => {
    const file = join(dir, 'one.ndjson');
    writeFileSync(file, `${JSON.stringify({ type: 'company', id: 'initech', name: 'Initech' })}\n`);
    const refusals = await Promise.all([
      runCommand('credentials', ['create', 'beside the service', 'acme-corp', '--fields', 'all', '--purpose', 'tests: beside the service'], env),
      runCommand('credentials', ['list'], env),
      runCommand('import', [file], env),
      runCommand('erase', ['company', 'globex'], env),
      runCommand('accessAudit', ['person', '00000000-0000-4000-8000-000000000001'], env),
      runCommand('migrate', [], env),
      runServiceToExit({ PATH: process.env.PATH, HOME: process.env.HOME, ...serviceEnv }),
    ]);
    const line = new RegExp(
      `^database error: PGLITE_DATA_DIR ${realpathSync(dataDir)} is in use by process ${server.process.pid} \\(server/main\\.ts, since \\S+\\): an embedded database is opened by one process at a time; stop that process first \\(docs/operating/embedded-database\\.md\\)\\n$`,
    );
    for (const result of refusals) {
      expect(result.code, result.stdout).toBe(1);
      expect(result.stderr).toMatch(line);
      expect(result.stdout).not.toMatch(/created credential|imported|erased|"listening"/);
    }
    // The service goes on, and nothing reached its database.
    const call = contractCall(server.url);
    expect((await call('GET', '/healthz')).status).toBe(200);
  }, 240_000);

  it('after a crash, a command takes the directory over and its write is there at the next start', async () => {
    server.process.kill('SIGKILL');
    await server.exited;
    const created = await runCommand('credentials', ['create', 'after the crash', 'acme-corp', '--fields', 'all', '--purpose', 'tests: after the crash'], env);
    expect(created.code, created.stderr).toBe(0);
    const token = /token \(shown once, store it now\): (plk_\S+)/.exec(created.stdout)![1]!;
    server = await startChildServer(serviceEnv);
    const call = contractCall(server.url);
    expect((await call('GET', '/v1/companies/acme-corp/hello', { token })).status).toBe(200);
    // The write that was refused while the service ran is not there.
    expect((await call('GET', '/v1/companies/initech/hello', { token })).status).toBe(403);
  }, 240_000);
});
