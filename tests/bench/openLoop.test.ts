// The import bench's open loop keeps each failed request's reason beside the count, so a
// run that failed searches says whether the service shed them (503), refused what the
// bench asked (4xx) or broke (500). Each request's answer is checked against the contract
// once through the tests' client; the open loop reads only the status and error code.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { figuresOf, openLoop } from '../../bench/imports/openLoop.js';
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
