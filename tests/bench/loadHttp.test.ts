// A closed loop's answers counted from a moment within it (bench/loadHttp.ts, countFrom):
// the searches' throughput during a change counts only while the import writes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { measureHttp } from '../../bench/loadHttp.js';

let server: Server;
let url: string;
/** Requests the server took in all, and since `moment` (performance.now()). */
const taken = { all: 0, since: 0 };
let moment = Number.POSITIVE_INFINITY;
beforeAll(async () => {
  server = createServer((_request, response) => {
    taken.all++;
    if (performance.now() >= moment) taken.since++;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const load = (countFrom?: Promise<unknown>) =>
  measureHttp({ url, token: 't', requests: [{ method: 'GET', path: '/' }], connections: 2, durationS: 2, pid: process.pid, countFrom });
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('counts the answers and the seconds from when countFrom settles', async () => {
  const whole = await load();
  taken.all = 0;
  const fromLater = await load(after(1000).then(() => (moment = performance.now())));
  moment = Number.POSITIVE_INFINITY;
  expect(whole.countedFrom).toBeUndefined();
  expect(whole.seconds).toBeCloseTo(2, 0);
  expect(fromLater.countedFrom).toBe(true);
  expect(fromLater.seconds).toBeGreaterThan(0.3);
  expect(fromLater.seconds).toBeLessThan(1.6);
  // The answers to what the server took since then, give or take one in flight per connection.
  expect(Math.abs(fromLater.requests - taken.since)).toBeLessThanOrEqual(4);
  expect(fromLater.requests).toBeLessThan(taken.all * 0.75);
  expect(fromLater.rps).toBeCloseTo(fromLater.requests / fromLater.seconds, 5);
});

it('counts the whole run where countFrom settles after it', async () => {
  const late = await load(new Promise(() => {}));
  expect(late.countedFrom).toBe(false);
  expect(late.seconds).toBeCloseTo(2, 0);
});
