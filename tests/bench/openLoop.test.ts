// The import bench's open loop keeps each failed request's reason beside the count, so a
// run that failed searches says whether the service shed them (503), refused what the
// bench asked (4xx) or broke (500). Each request's answer is checked against the contract
// once through the tests' client; the open loop reads only the status and error code.
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
