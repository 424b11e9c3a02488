// PostgreSQL slow, saturated, down and back: each answered 503 service_unavailable (with
// Retry-After) within a bounded time, the process stays up, and it recovers by itself.
// Needs a real PostgreSQL (DATABASE_URL); the faults are real, not simulated: a table lock
// makes statements wait, and a TCP proxy between the server and PostgreSQL is cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../fixtures/small.js';
import { useThrowawayDatabase } from '../helpers/databases.js';
import { databaseUrl, postgresTarget, viaPort } from '../helpers/environment.js';
import { lockTable, untilSomeoneWaitsForALock } from '../helpers/locks.js';
import { type ConfiguredServer, startConfiguredServer } from '../helpers/server.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy.js';

if (!databaseUrl) describe.skip('database faults (DATABASE_URL not set: these need a real PostgreSQL)', () => it('skipped', () => {}));

const search = (server: ConfiguredServer) => server.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'dur' } });

function expectUnavailable(res: { status: number; body: unknown; headers: Headers }) {
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: 'service_unavailable' });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe.runIf(databaseUrl)('database faults', () => {
  const database = useThrowawayDatabase('postgres');

  describe('a statement over PG_STATEMENT_TIMEOUT_MS', () => {
    let server: ConfiguredServer;
    beforeAll(async () => {
      server = await startConfiguredServer({ DATABASE_URL: database.url!, PG_STATEMENT_TIMEOUT_MS: '300' });
    });
    afterAll(() => server?.close());

    it('is cancelled by PostgreSQL and answered 503, and the next request is served', async () => {
      const lock = await lockTable(database.url!, 'employees');
      try {
        const started = performance.now();
        const res = await search(server);
        const ms = performance.now() - started;
        expectUnavailable(res);
        expect(ms).toBeGreaterThanOrEqual(250);
        expect(ms).toBeLessThan(4_000); // well under the 5 s default: the setting is what applies
      } finally {
        await lock.release();
      }
      expect((await search(server)).status).toBe(200);
    });
  });

  describe('an exhausted pool (PG_POOL_MAX=1)', () => {
    let server: ConfiguredServer;
    beforeAll(async () => {
      server = await startConfiguredServer({
        DATABASE_URL: database.url!,
        PG_POOL_MAX: '1',
        PG_CONNECTION_TIMEOUT_MS: '400',
        PG_STATEMENT_TIMEOUT_MS: '20000',
      });
      expect((await search(server)).status).toBe(200); // credential cached, connection open
    });
    afterAll(() => server?.close());

    it('answers 503 after PG_CONNECTION_TIMEOUT_MS instead of queueing forever, shows it in /metrics, and recovers', async () => {
      const lock = await lockTable(database.url!, 'employees');
      let holder: ReturnType<typeof search> | undefined;
      try {
        holder = search(server); // takes the only connection and waits on the lock
        await untilSomeoneWaitsForALock(database.url!);
        const started = performance.now();
        const waiting = search(server);
        await new Promise((r) => setTimeout(r, 150));
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        // At least this request; a background tick (last-use flush, housekeeping) may wait too.
        expect(metrics).toMatch(/db_pool_connections\{state="waiting"\} [1-9]\d*\n/);
        expect(metrics).toMatch(/db_pool_connections\{state="max"\} 1/);
        const res = await waiting;
        const ms = performance.now() - started;
        expectUnavailable(res);
        expect(ms).toBeGreaterThanOrEqual(350);
        expect(ms).toBeLessThan(4_000); // well under the 5 s default: the setting is what applies
      } finally {
        await lock.release();
      }
      expect((await holder!).status).toBe(200);
      expect((await search(server)).status).toBe(200);
    });
  });

  describe('PostgreSQL that stops answering on an open connection (a hung host or partition)', () => {
    let proxy: TcpProxy;
    let server: ConfiguredServer;
    // statement_timeout cannot help (PostgreSQL never sees the statement); the request
    // deadline (connection wait + statement timeout + 1 s) answers instead.
    const DEADLINE = 300 + 300 + 1_000;
    beforeAll(async () => {
      proxy = await startTcpProxy(postgresTarget(database.url!));
      server = await startConfiguredServer({
        DATABASE_URL: viaPort(database.url!, proxy.port),
        PG_STATEMENT_TIMEOUT_MS: '300',
        PG_CONNECTION_TIMEOUT_MS: '300',
        CREDENTIAL_CACHE_MS: '0',
      });
      expect((await search(server)).status).toBe(200);
    });
    afterAll(async () => {
      await server?.close();
      await proxy?.close();
    });

    it('answers 503 at the deadline instead of holding the request, and serves again when it answers', async () => {
      // Several connections open first: a background tick (the webhook poll, the feed's
      // clock, the audit shipper) caught on one by the stall leaves the search another,
      // rather than a new one that would fail its handshake in 300 ms.
      await Promise.all(Array.from({ length: 5 }, () => search(server)));
      const open = /db_pool_connections\{state="total"\} (\d+)/.exec(await (await fetch(`${server.url}/metrics`)).text());
      expect(Number(open?.[1])).toBeGreaterThan(1);
      proxy.stall();
      try {
        // On the open (now silent) connection: held until the deadline, then 503.
        let started = performance.now();
        expectUnavailable(await search(server));
        let ms = performance.now() - started;
        expect(ms).toBeGreaterThanOrEqual(DEADLINE - 100);
        expect(ms).toBeLessThan(DEADLINE + 3_000);
        // Authentication needs the database too (no credential cache here): a new
        // connection cannot complete its handshake, so 503 by PG_CONNECTION_TIMEOUT_MS.
        started = performance.now();
        expectUnavailable(await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both }));
        ms = performance.now() - started;
        expect(ms).toBeLessThan(DEADLINE + 3_000);
      } finally {
        await proxy.restore();
      }
      await expect.poll(async () => (await search(server)).status, { timeout: 10_000 }).toBe(200);
    });
  });

  describe('PostgreSQL going away behind a proxy', () => {
    let proxy: TcpProxy;
    let server: ConfiguredServer;
    beforeAll(async () => {
      proxy = await startTcpProxy(postgresTarget(database.url!));
      // No credential cache: authentication itself needs the database, and must answer
      // 503 rather than 401 when it cannot ask.
      server = await startConfiguredServer({ DATABASE_URL: viaPort(database.url!, proxy.port), CREDENTIAL_CACHE_MS: '0', PG_CONNECTION_TIMEOUT_MS: '1000' });
    });
    afterAll(async () => {
      await server?.close();
      await proxy?.close();
    });

    it('answers a request whose connection is cut mid-query with 503, and the process survives', async () => {
      const lock = await lockTable(database.url!, 'employees');
      try {
        const inFlight = search(server);
        await untilSomeoneWaitsForALock(database.url!);
        await proxy.cut();
        expectUnavailable(await inFlight);
      } finally {
        await lock.release();
      }
    });

    it('while it is down: 503 on every operation, /readyz 503, /healthz 200', async () => {
      expectUnavailable(await search(server));
      expectUnavailable(await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both }));
      const ready = await server.call('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ error: 'service_unavailable' });
      expect((await server.call('GET', '/healthz')).status).toBe(200);
    });

    it('when it returns: serves again without a restart', async () => {
      await proxy.restore();
      await expect.poll(async () => (await server.call('GET', '/readyz')).status, { timeout: 10_000 }).toBe(200);
      const res = await search(server);
      expect(res.status).toBe(200);
      expect(res.body.persons.length).toBeGreaterThan(0);
      expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both })).status).toBe(200);
    });
  });
});
