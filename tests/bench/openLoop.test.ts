// The import bench's open loop keeps each failed request's reason beside the count, so a
// run that failed searches says whether the service shed them (503), refused what the
// bench asked (4xx) or broke (500). Each request's answer is checked against the contract
// once through the tests' client; the open loop reads only the status and error code.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getPriority } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATOR_NICE, LoadGenerator } from '../../bench/imports/loadGenerator.js';
import { figuresOf, generatorOf, type OpenLoopLoad, openLoop } from '../../bench/imports/openLoop.js';
import { smallDataset, tokens } from '../fixtures/small.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ records: smallDataset() });
});
afterAll(() => server?.close());

it('counts the answers of each kind, and names each failure by its status and error code', async () => {
  const samples = await openLoop({
    url: server.url,
    token: tokens.both,
    kinds: {
      answered: [{ method: 'POST', path: '/v1/persons/search', body: JSON.stringify({ lastName: 'dur' }) }],
      refused: [{ method: 'GET', path: '/v1/persons/not-a-uuid' }],
    },
    rate: 40,
    until: { seconds: 1 },
  });
  const { answered, refused } = figuresOf([samples]).byKind;
  expect((await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'dur' } })).status).toBe(200);
  expect((await server.call('GET', '/v1/persons/not-a-uuid', { token: tokens.both })).body).toEqual({ error: 'invalid_person_id' });
  expect(answered!.answered).toBeGreaterThan(0);
  expect(answered!.failed).toBe(0);
  expect(answered!.failedBy).toBeUndefined();
  expect(refused!.answered).toBe(0);
  expect(refused!.failed).toBeGreaterThan(0);
  expect(refused!.failedBy).toEqual({ '400 invalid_person_id': refused!.failed });
});

it('sums the reasons over periods', async () => {
  const period = () =>
    openLoop({
      url: server.url,
      token: tokens.both,
      kinds: { refused: [{ method: 'GET', path: '/v1/persons/not-a-uuid' }] },
      rate: 20,
      until: { seconds: 0.5 },
    });
  const periods = [await period(), await period()];
  const { refused } = figuresOf(periods).byKind;
  const each = periods.map((p) => p.failed.refused!['400 invalid_person_id'] ?? 0);
  expect(each.every((n) => n > 0)).toBe(true);
  expect(refused!.failedBy).toEqual({ '400 invalid_person_id': each[0]! + each[1]! });
});

/** A server that answers each connection's first request and drops the connection on its next. */
async function oneRequestPerConnection(everyRequest: boolean): Promise<{ url: string; server: Server }> {
  const seen = new WeakSet<object>();
  const server = createServer((req, res) => {
    if (everyRequest || seen.has(req.socket)) {
      req.socket.destroy();
      return;
    }
    seen.add(req.socket);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

it('sends again, on a new socket, a request whose kept-alive socket the server closed', async () => {
  const { url, server: dropping } = await oneRequestPerConnection(false);
  try {
    const samples = await openLoop({ url, token: 't', kinds: { reused: [{ method: 'GET', path: '/' }] }, rate: 40, until: { seconds: 0.5 } });
    const { reused } = figuresOf([samples]).byKind;
    expect(reused!.failedBy).toBeUndefined();
    expect(reused!.answered).toBe(samples.sent);
  } finally {
    dropping.close();
  }
});

it('counts a reset on a fresh socket as a failure, without sending it again', async () => {
  const { url, server: dropping } = await oneRequestPerConnection(true);
  try {
    const samples = await openLoop({ url, token: 't', kinds: { reset: [{ method: 'GET', path: '/' }] }, rate: 20, until: { seconds: 0.3 } });
    const { reset } = figuresOf([samples]).byKind;
    expect(reset!.answered).toBe(0);
    expect(reset!.failedBy).toEqual({ ECONNRESET: samples.sent });
  } finally {
    dropping.close();
  }
});

/** A server that answers every request at once, in this thread. */
async function answering(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Keeps this thread busy for `ms`, as a long garbage collection or a synchronous step of the bench would. */
function blockThisThread(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe('the load generator in a worker thread of its own', () => {
  let target: { url: string; server: Server };
  beforeAll(async () => {
    target = await answering();
  });
  afterAll(() => target?.server.close());
  const load = (until: OpenLoopLoad['until']): OpenLoopLoad => ({
    url: target.url,
    token: 't',
    kinds: { hello: [{ method: 'GET', path: '/' }] },
    rate: 100,
    until,
  });

  it('sends on time while the bench thread is busy, where the open loop in that thread sends late', async () => {
    const inThisThread = openLoop(load({ seconds: 1 }));
    setTimeout(() => blockThisThread(400), 200);
    expect((await inThisThread).sentLate).toBeGreaterThan(10);

    const generator = await LoadGenerator.start();
    try {
      const apart = generator.run(load({ seconds: 1 }));
      setTimeout(() => blockThisThread(400), 200);
      const samples = await apart;
      expect(samples.sentLate).toBe(0);
      expect(figuresOf([samples]).byKind.hello!.answered).toBe(samples.sent);
    } finally {
      await generator.close();
    }
  });

  it('runs its own thread alone ahead of the processes measured where it may, and says what delayed it', async () => {
    const generator = await LoadGenerator.start();
    try {
      const samples = await generator.run(load({ seconds: 0.3 }));
      // Raised only as root (CAP_SYS_NICE); elsewhere left as every other thread is.
      expect(samples.generator!.nice).toBe(process.getuid?.() === 0 ? GENERATOR_NICE : getPriority());
      expect(getPriority()).not.toBe(GENERATOR_NICE);
      expect(samples.generator!.waitedForCoreSeconds).toBeGreaterThanOrEqual(0);
      expect(samples.generator!.delayMaxMs).toBeGreaterThan(0);
      expect(generatorOf([samples, samples])!.waitedForCoreSeconds).toBeCloseTo(2 * samples.generator!.waitedForCoreSeconds, 1);
    } finally {
      await generator.close();
    }
  });

  it('runs period after period, each until its promise settles', async () => {
    const generator = await LoadGenerator.start();
    try {
      const timed = await generator.run(load({ seconds: 0.3 }));
      const untilSettled = await generator.run(load(new Promise((resolve) => setTimeout(resolve, 500))));
      expect(timed.seconds).toBeCloseTo(0.3, 1);
      expect(untilSettled.seconds).toBeCloseTo(0.5, 1);
      expect(untilSettled.sent).toBeGreaterThan(timed.sent);
    } finally {
      await generator.close();
    }
  });
});
