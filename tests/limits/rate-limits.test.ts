// Per-credential budgets and the per-address limit on failed authentications, in memory
// and (with REDIS_URL) in Redis, and what happens to them when Redis goes away or hangs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecords } from '../../server/importing/index.js';
import { smallDataset, tokens } from '../fixtures/small.js';
import { expectContractResponse } from '../helpers/contract.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseUrl, dropRedisKeys, redisTarget, redisUrl, uniqueKeyPrefix } from '../helpers/environment.js';
import { parseResponse, sendAtOnce } from '../helpers/rawHttp.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy.js';

const BURST = 5;
const PER_SECOND = 1;
const AUTH_FAILURES = 3;
const hello = '/v1/companies/acme-corp/hello';

const stores = redisUrl ? ['memory', 'redis'] : ['memory'];
if (!redisUrl) describe.skip('rate limits in Redis (REDIS_URL not set)', () => it('skipped', () => {}));

describe.each(stores)('rate limits in %s', (store) => {
  let server: TestServer;
  const prefix = uniqueKeyPrefix('rate-limits');
  beforeAll(async () => {
    server = await startTestServer({
      records: smallDataset(),
      env: {
        RATE_LIMIT_PER_SECOND: String(PER_SECOND),
        RATE_LIMIT_BURST: String(BURST),
        AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES),
        RATE_LIMIT_KEY_PREFIX: prefix,
        ...(store === 'redis' ? { REDIS_URL: redisUrl! } : {}),
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await dropRedisKeys(prefix);
  });

  it('spends a credential budget of rate + burst, then answers 429 rate_limited with Retry-After and RateLimit headers', async () => {
    const started = Date.now();
    const statuses: number[] = [];
    let limited;
    // Until a few requests have been refused (however slow this machine is).
    while (statuses.filter((s) => s === 429).length < 3 && statuses.length < 60) {
      const res = await server.call('GET', hello, { token: tokens.acme });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const accepted = statuses.filter((s) => s === 200).length;
    // One window's rate plus the burst, plus one more per further second the loop took.
    expect(accepted).toBeGreaterThanOrEqual(PER_SECOND + BURST);
    expect(accepted).toBeLessThanOrEqual(PER_SECOND + BURST + seconds * PER_SECOND);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(limited!.body).toEqual({ error: 'rate_limited' });
    const retryAfter = Number(limited!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    expect(limited!.headers.get('ratelimit-limit')).toBe(String(PER_SECOND));
    expect(limited!.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('keeps budgets per credential: another credential is not limited', async () => {
    const res = await server.call('GET', hello, { token: tokens.both });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
  });

  it('lets the credential in again after Retry-After', async () => {
    const limited = await server.call('GET', hello, { token: tokens.acme });
    expect(limited.status).toBe(429);
    await new Promise((r) => setTimeout(r, Number(limited.headers.get('retry-after')) * 1000 + 50));
    expect((await server.call('GET', hello, { token: tokens.acme })).status).toBe(200);
  });

  it(`answers 429 to an address after ${AUTH_FAILURES} failed authentications, even with a good token, until the minute is over`, async () => {
    for (let i = 0; i < AUTH_FAILURES; i++) {
      const res = await server.call('GET', hello, { token: `plk_guess_${i}_0000000000000` });
      expect(res.status, `guess ${i + 1}`).toBe(401);
    }
    const guess = await server.call('GET', hello, { token: 'plk_guess_last_00000000000' });
    expect(guess.status).toBe(429);
    expect(guess.body).toEqual({ error: 'rate_limited' });
    const retryAfter = Number(guess.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The headers describe the address's budget (failures per minute), not a credential's.
    expect(guess.headers.get('ratelimit-limit')).toBe(String(AUTH_FAILURES));
    expect(guess.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(guess.headers.get('ratelimit-reset'))).toBe(retryAfter);
    const good = await server.call('GET', hello, { token: tokens.both });
    expect(good.status).toBe(429);
    // Operators' routes are not behind the limit.
    expect((await server.call('GET', '/healthz')).status).toBe(200);
  });
});

// On PostgreSQL where there is one: its credential lookups overlap for real, so a budget
// checked before and recorded after them leaks (PGlite, one in-process engine, happens to
// finish each lookup before the next request is read).
const concurrencyEngine = databaseUrl ? 'postgres' : 'pglite';
describe.each(stores)(`the failed-authentication budget under concurrency, in %s (${concurrencyEngine})`, (store) => {
  const FAILURES = 30; // the default
  const prefixes: string[] = [];
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(concurrencyEngine);
    await importRecords(database.db, smallDataset(), 'US');
  });
  afterAll(async () => {
    await database?.drop();
    for (const prefix of prefixes) await dropRedisKeys(prefix);
  });

  it.each([50, 200])('answers exactly the budget of %i concurrent bad tokens from one address 401, and the rest 429', async (concurrent) => {
    const prefix = uniqueKeyPrefix(`auth-concurrency-${concurrent}`);
    prefixes.push(prefix);
    const server = await startTestServer({
      database,
      env: { AUTH_FAILURES_PER_MINUTE: String(FAILURES), RATE_LIMIT_KEY_PREFIX: prefix, ...(store === 'redis' ? { REDIS_URL: redisUrl! } : {}) },
    });
    try {
      const exchanges = await sendAtOnce(
        server.url,
        Array.from(
          { length: concurrent },
          (_, i) => `GET ${hello} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer plk_guess_${concurrent}_${i}_000000000000\r\nConnection: close\r\n\r\n`,
        ),
      );
      const answers = exchanges.map(({ text }) => {
        const res = parseResponse(text);
        expectContractResponse('GET', hello, res.status, new Headers(res.headers), JSON.parse(res.body));
        return res;
      });
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(FAILURES);
      expect(statuses.filter((s) => s === 429)).toHaveLength(concurrent - FAILURES);
      for (const res of answers.filter((r) => r.status === 429)) expect(res.headers['ratelimit-limit']).toBe(String(FAILURES));
    } finally {
      await server.close();
    }
  });
});

describe.runIf(redisUrl)('rate limits when Redis fails', () => {
  let proxy: TcpProxy;
  let server: TestServer;
  const prefix = uniqueKeyPrefix('redis-faults');
  beforeAll(async () => {
    proxy = await startTcpProxy(redisTarget());
    server = await startTestServer({
      records: smallDataset(),
      env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, RATE_LIMIT_KEY_PREFIX: prefix, RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_BURST: '1000' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await dropRedisKeys(prefix);
  });

  const timed = async () => {
    const started = performance.now();
    const res = await server.call('GET', hello, { token: tokens.both });
    return { status: res.status, ms: performance.now() - started };
  };

  it('falls back to the in-memory budget while Redis is down, and goes back to Redis when it returns', async () => {
    expect((await timed()).status).toBe(200);
    await proxy.cut();
    for (let i = 0; i < 5; i++) {
      const { status, ms } = await timed();
      expect(status).toBe(200);
      expect(ms).toBeLessThan(1_000);
    }
    await proxy.restore();
    // ioredis reconnects with a back-off of at most a couple of seconds.
    await expect.poll(async () => (await timed()).status, { timeout: 10_000 }).toBe(200);
    const { Redis } = await import('ioredis');
    const direct = new Redis(redisUrl!);
    await expect.poll(async () => (await timed(), (await direct.keys(`${prefix}:*`)).length), { timeout: 10_000 }).toBeGreaterThan(0);
    direct.disconnect();
  });

  it('does not hold requests while Redis hangs: each is answered within about a second', async () => {
    proxy.stall();
    try {
      for (let i = 0; i < 3; i++) {
        const { status, ms } = await timed();
        expect(status).toBe(200);
        expect(ms).toBeLessThan(3_000);
      }
    } finally {
      await proxy.restore();
    }
  });
});
