// What the service says when its Redis goes and comes back (server/limits/redisHealth.ts):
// one warning when it goes, at most one reminder per period while it is away, one line
// when it is back, never a stack. A real Redis behind a proxy that is cut and restored;
// the reminder period is shortened here (60 s in the service) so the run stays short.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_REMINDER_MS, RedisHealth } from '../../server/limits/redisHealth.js';
import { redisTarget, redisUrl } from '../helpers/environment.js';
import { captureLogs } from '../helpers/logCapture.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(redisUrl)('Redis lost and back', () => {
  let proxy: TcpProxy;
  let redis: Redis;
  const logs = captureLogs('info');
  beforeAll(async () => {
    proxy = await startTcpProxy(redisTarget());
    // As app.ts connects (its retries are ioredis's defaults: every reconnection fails loudly).
    redis = new Redis({ host: '127.0.0.1', port: proxy.port, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    new RedisHealth(redis, logs.logger, 1_000);
    await new Promise((resolve) => redis.once('ready', resolve));
  });
  afterAll(async () => {
    redis?.disconnect();
    await proxy?.close();
  });

  it('warns once when it goes, reminds at most once a period, says once when it is back, with no stack', async () => {
    expect(REDIS_REMINDER_MS).toBe(60_000);
    await proxy.cut();
    await sleep(3_500);
    await proxy.restore();
    await expect.poll(() => redis.status, { timeout: 10_000 }).toBe('ready');
    await sleep(200);
    const lines = logs.lines().filter((l) => /^redis /.test(l.msg));
    const said = lines.map((l) => l.msg);
    expect(said[0]).toBe('redis unavailable; rate limits fall back to this instance');
    expect(said.at(-1)).toBe('redis available again; rate limits are shared again');
    const reminders = lines.filter((l) => l.msg === 'redis still unavailable; rate limits use this instance');
    // 3.5 s away with a 1 s period: two or three reminders (ioredis retries every ~2 s at most), never one per retry.
    expect(reminders.length).toBeGreaterThanOrEqual(1);
    expect(reminders.length).toBeLessThanOrEqual(3);
    const at = (line: Record<string, any>) => Date.parse(line.time);
    for (let i = 1; i < reminders.length; i++) expect(at(reminders[i]!) - at(reminders[i - 1]!)).toBeGreaterThanOrEqual(1_000);
    expect(said).toHaveLength(reminders.length + 2);
    expect(lines[0]!.cause).toEqual(expect.any(String));
    expect(logs.text()).not.toMatch(/"stack"|"err"/);
  }, 30_000);
});
