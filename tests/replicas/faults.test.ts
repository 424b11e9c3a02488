// Faults of real databases while the service reads from a hot standby, none answered 5xx:
// the standby stopped or frozen (SIGSTOP), its reads move to the primary within about a
// second and come back when it does; the primary stopped, reads go on from the standby
// with an honest asOf that grows older, writes fail clearly, the audit spool keeps its
// entries until the primary is back. No restart anywhere.
import { spawn } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
import type { ReplicatedCluster } from '../../support/replicatedCluster.js';
import { ids, tokens } from '../fixtures/small.js';
import { type ReplicaSetup, replicatedSmallDataset } from '../helpers/replicaSetup.js';
import { describeReplication } from '../helpers/replicaSuite.js';
import type { ConfiguredServer } from '../helpers/server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The reads each database answered, from /metrics. */
async function readsBy(server: ConfiguredServer): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const reads: Record<string, number> = {};
  for (const [, labels, value] of text.matchAll(/^db_reads_total\{([^}]*)\} (\d+)/gm)) reads[/database="([^"]+)"/.exec(labels!)![1]!] = Number(value);
  return reads;
}

/** Searches from `loops` clients until stopped: every status, and the slowest answer. */
function keepSearching(server: ConfiguredServer, loops = 4) {
  const statuses: number[] = [];
  let slowest = 0;
  let running = true;
  const done = Promise.all(
    Array.from({ length: loops }, async () => {
      while (running) {
        const started = performance.now();
        const res = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'dur' } });
        slowest = Math.max(slowest, performance.now() - started);
        statuses.push(res.status);
        if (res.status === 200) expect(res.body.persons.map((p: any) => p.id)).toEqual([ids.ana, ids.emile]);
      }
    }),
  );
  return {
    statuses,
    slowest: () => slowest,
    async stop() {
      running = false;
      await done;
    },
  };
}

describeReplication('faults of the primary and the standby', () => {
  let setup: ReplicaSetup;
  let cluster: ReplicatedCluster;
  let primary: Database;
  let server: ConfiguredServer;
  let spoolDir: string;
  const standbyName = () => `127.0.0.1:${cluster.standby.port}`;

  beforeAll(async () => {
    setup = await replicatedSmallDataset();
    ({ cluster, primary, spoolDir } = setup);
    server = await setup.start({ PG_CONNECTION_TIMEOUT_MS: '1000' });
  });
  afterAll(() => setup?.close());

  it('reports each database and its lag on /readyz and /metrics, and reads from the standby', async () => {
    const ready = await server.call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.databases).toEqual([
      { name: 'primary', role: 'primary', up: true },
      { name: standbyName(), role: 'replica', up: true, lagMs: expect.any(Number) },
    ]);
    expect(ready.body.databases[1].lagMs).toBeLessThan(2_000);
    const before = await readsBy(server);
    for (let i = 0; i < 10; i++) expect((await server.call('POST', '/v1/persons/search', { token: tokens.both, body: {} })).status).toBe(200);
    const after = await readsBy(server);
    expect(after[standbyName()]! - before[standbyName()]!).toBeGreaterThanOrEqual(10);
    expect(after.primary).toBe(before.primary);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`db_replica_lag_seconds\\{database="${standbyName()}"\\} 0\\.\\d+`));
    expect(metrics).toMatch(/db_up\{database="primary",role="primary"\} 1/);
    // The standby really serves: the service's sessions are there.
    const [{ n }] = (await cluster.standby.sql<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
    )) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
  });

  it('moves the reads of a stopped standby to the primary at once, and back when it returns', async () => {
    const load = keepSearching(server);
    try {
      await new Promise((r) => setTimeout(r, 300));
      await cluster.standby.stop();
      const stopped = await readsBy(server);
      await new Promise((r) => setTimeout(r, 800));
      const meanwhile = await readsBy(server);
      expect(meanwhile.primary! - stopped.primary!).toBeGreaterThan(5);
      expect(meanwhile[standbyName()]).toBe(stopped[standbyName()]);
      expect((await server.call('GET', '/readyz')).body.databases[1].up).toBe(false);
      await cluster.standby.start();
      await expect.poll(async () => (await readsBy(server))[standbyName()]! - stopped[standbyName()]!, { timeout: 10_000 }).toBeGreaterThan(5);
    } finally {
      await load.stop();
    }
    expect(load.statuses.length).toBeGreaterThan(20);
    expect(load.statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('moves the reads of a frozen standby (SIGSTOP) to the primary within about a second, and back when it thaws', async () => {
    await cluster.caughtUp();
    await expect.poll(async () => (await server.call('GET', '/readyz')).body.databases[1].up, { timeout: 10_000 }).toBe(true);
    const load = keepSearching(server);
    try {
      await new Promise((r) => setTimeout(r, 300));
      cluster.standby.freeze();
      await new Promise((r) => setTimeout(r, 2_500));
      expect((await server.call('GET', '/readyz')).body.databases[1].up).toBe(false);
      cluster.standby.thaw();
      await expect.poll(async () => (await server.call('GET', '/readyz')).body.databases[1].up, { timeout: 10_000 }).toBe(true);
    } finally {
      cluster.standby.thaw();
      await load.stop();
    }
    expect(load.statuses.filter((s) => s !== 200)).toEqual([]);
    // Held by the frozen standby at most until the check gives up on it (250 ms + 750 ms), then answered elsewhere.
    expect(load.slowest(), `the slowest answer took ${Math.round(load.slowest())} ms`).toBeLessThan(1_800);
  });

  it('reads on from the standby while the primary is stopped, with an honest asOf growing older; writes fail clearly; the spool keeps every entry', async () => {
    const search = () => server.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'dur' } });
    const audited = async () => (await primary.query<{ n: number }>("SELECT count(*)::int AS n FROM access_audit WHERE operation = 'searchPersons'"))[0]!.n;
    await server.app.auditShipper!.drain();
    const auditedBefore = await audited();
    let answered = 0;
    await cluster.primary.stop();
    try {
      const first = await search();
      expect(first.status).toBe(200);
      answered++;
      await new Promise((r) => setTimeout(r, 1_500));
      const later = await search();
      expect(later.status).toBe(200);
      answered++;
      // The standby's position stopped with the primary: asOf stands still, so it grows older.
      expect(later.body.asOf).toBe(first.body.asOf);
      expect(Date.now() - Date.parse(later.body.asOf)).toBeGreaterThan(1_400);
      for (let i = 0; i < 20; i++) {
        expect((await search()).status).toBe(200);
        answered++;
      }
      // (A getPerson entry too, counted apart.)
      expect((await server.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.both })).status).toBe(200);
      // The entries went to an offline spool file: no lock or row could be had.
      expect(readdirSync(spoolDir).some((name) => name.startsWith('audit-offline-'))).toBe(true);
      // Credentials: what the standby says stands (nothing newer can be learnt), no 503.
      expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both })).status).toBe(200);
      expect((await server.call('GET', '/v1/companies/secret-co/hello', { token: tokens.both })).status).toBe(403);
      expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: 'plk_unknown_while_primary_down' })).status).toBe(401);
      const ready = await server.call('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.databases[0]).toEqual({ name: 'primary', role: 'primary', up: false });
      // A write fails clearly: the import exits non-zero, saying why.
      const file = join(spoolDir, '..', `import-${Date.now()}.ndjson`);
      writeFileSync(file, `${JSON.stringify({ type: 'company', id: 'initech', name: 'Initech' })}\n`);
      try {
        const imported = await runImport(file, cluster.primary.url);
        expect(imported.code).not.toBe(0);
        expect(imported.stderr).toMatch(/^database error: DATABASE_URL: cannot connect to .*: connection refused/);
      } finally {
        rmSync(file, { force: true });
      }
    } finally {
      await cluster.primary.start();
    }
    // Back without a restart: the entries spooled meanwhile reach the primary, each once.
    await expect.poll(async () => (await server.call('GET', '/readyz')).body.databases[0].up, { timeout: 10_000 }).toBe(true);
    await expect
      .poll(
        async () => {
          await server.app.auditShipper!.drain();
          return (await audited()) - auditedBefore;
        },
        { timeout: 15_000 },
      )
      .toBe(answered);
    expect((await search()).status).toBe(200);
  });
});

function runImport(file: string, databaseUrl: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/import.ts', file], {
      cwd: root,
      // One attempt: a command waits DATABASE_CONNECT_TIMEOUT_MS for a primary that is down.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl, DATABASE_CONNECT_TIMEOUT_MS: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}
