// Two instances of the service on one PostgreSQL and one Redis, as in production behind
// a load balancer: one rate-limit budget per credential across both, and one instance
// dying mid-load (SIGKILL, requests in flight) costs the other nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecords } from '../../server/importing/index.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { type Call, contractCall } from '../helpers/call.js';
import { type ChildServer, startChildServer } from '../helpers/childServer.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseUrl, dropRedisKeys, redisUrl, uniqueKeyPrefix } from '../helpers/environment.js';
import { type ConfiguredServer, startConfiguredServer } from '../helpers/server.js';

// A small sustained rate and a burst that refills over 100 s: the budget the test spends
// does not depend on how fast this machine happens to be.
const PER_SECOND = 1;
const BURST = 100;

if (!databaseUrl || !redisUrl) {
  describe.skip('two instances sharing PostgreSQL and Redis (set DATABASE_URL and REDIS_URL to run)', () => it('skipped', () => {}));
}

describe.runIf(databaseUrl && redisUrl)('two instances sharing PostgreSQL and Redis', () => {
  let database: ThrowawayDatabase;
  let a: ChildServer;
  let b: ConfiguredServer;
  let callA: Call;
  const prefix = uniqueKeyPrefix('shared-instances');
  beforeAll(async () => {
    database = await throwawayDatabase('postgres');
    await importRecords(database.db, smallDataset(), 'US');
    const env = {
      DATABASE_URL: database.url!,
      REDIS_URL: redisUrl!,
      RATE_LIMIT_KEY_PREFIX: prefix,
      RATE_LIMIT_PER_SECOND: String(PER_SECOND),
      RATE_LIMIT_BURST: String(BURST),
      AUTH_FAILURES_PER_MINUTE: '100000',
      DEMO_DATA: 'false',
    };
    [a, b] = await Promise.all([startChildServer(env), startConfiguredServer(env)]);
    callA = contractCall(a.url);
  }, 120_000);
  afterAll(async () => {
    await a?.stop();
    await b?.close();
    await database?.drop();
    await dropRedisKeys(prefix);
  });

  it('holds one credential to one budget across both instances', async () => {
    const started = performance.now();
    const statuses: { instance: 'a' | 'b'; status: number }[] = [];
    // 250 requests, 10 at a time, alternating between the instances.
    for (let batch = 0; batch < 25; batch++) {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const instance = i % 2 ? 'a' : 'b';
          const call = instance === 'a' ? callA : b.call;
          return call('GET', '/v1/companies/acme-corp/hello', { token: tokens.acme }).then((res) => ({ instance, status: res.status }) as const);
        }),
      );
      statuses.push(...results);
    }
    const seconds = Math.ceil((performance.now() - started) / 1000);
    const accepted = statuses.filter((s) => s.status === 200);
    expect(statuses.every((s) => s.status === 200 || s.status === 429)).toBe(true);
    // One budget: the burst, plus the sustained rate for each second (window) touched;
    // a few more where a Redis command timed out on this busy machine and the instance
    // fell back to its own budget for that request (by design).
    expect(accepted.length).toBeGreaterThanOrEqual(BURST + PER_SECOND);
    expect(accepted.length).toBeLessThanOrEqual(BURST + PER_SECOND * (seconds + 1) + 5);
    // Two separate budgets would have let at least twice the burst through.
    expect(accepted.length).toBeLessThan(2 * (BURST + PER_SECOND));
    expect(accepted.some((s) => s.instance === 'a') && accepted.some((s) => s.instance === 'b')).toBe(true);
  });

  it('keeps serving every request on one instance while the other is killed mid-load', async () => {
    const deadline = performance.now() + 4_000;
    let killedAt = Infinity;
    const onB: { status: number; at: number }[] = [];
    const onA: string[] = [];
    // Within the credential budgets (B's credential has its whole burst left): every
    // answer from B must be a 200.
    const loadB = async () => {
      while (performance.now() < deadline) {
        const [search, person] = await Promise.all([
          b.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'dur' } }),
          b.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.both }),
        ]);
        onB.push({ status: search.status, at: performance.now() }, { status: person.status, at: performance.now() });
        // At most 2 workers x 2 requests per 200 ms for 4 s: 80, within the burst of 100.
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const loadA = async () => {
      while (performance.now() < deadline) {
        try {
          const res = await fetch(`${a.url}/v1/persons/search`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tokens.none}`, 'content-type': 'application/json' },
            body: '{}',
          });
          await res.text();
          onA.push(String(res.status));
        } catch (error) {
          onA.push((error as Error & { cause?: { code?: string } }).cause?.code ?? 'failed');
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    };
    const killer = new Promise<void>((resolve) =>
      setTimeout(() => {
        a.process.kill('SIGKILL');
        killedAt = performance.now();
        resolve();
      }, 1_500),
    );
    await Promise.all([loadB(), loadB(), loadA(), killer]);
    expect((await a.exited).signal).toBe('SIGKILL');
    expect(onA).toContain('200'); // A was serving before it died...
    expect(onA.some((outcome) => outcome !== '200')).toBe(true); // ...and was gone after.
    expect(onB.map((r) => r.status).filter((status) => status !== 200)).toEqual([]);
    expect(onB.filter((r) => r.at > killedAt).length, 'B answered after A died').toBeGreaterThanOrEqual(2);
    expect((await b.call('GET', '/readyz')).status).toBe(200);
  });
});
