// Behind a load balancer the failed-authentication budget must see clients, not the
// balancer: X-Forwarded-For names them, but anyone can send that header, so it counts only
// from TRUSTED_PROXIES, read right to left, and nothing a client wrote further left does.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddressResolver } from '../../server/http/clientAddress.js';
import { addressKey } from '../../server/limits/rateLimiter.js';
import { smallDataset, tokens } from '../fixtures/small.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const request = (remoteAddress: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('the client address', () => {
  const behindBalancers = clientAddressResolver(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32']);

  it.each([
    ['a direct client', request('203.0.113.9', '198.51.100.1'), '203.0.113.9'],
    ['a client through a trusted balancer', request('10.1.2.3', '198.51.100.1'), '198.51.100.1'],
    ['through two trusted proxies', request('10.1.2.3', '198.51.100.1, 192.0.2.7'), '198.51.100.1'],
    ['a client that forged the header itself', request('10.1.2.3', '127.0.0.1, 6.6.6.6, 198.51.100.1'), '198.51.100.1'],
    ['several header lines (node joins them)', request('10.1.2.3', '6.6.6.6, 198.51.100.1,10.9.9.9'), '198.51.100.1'],
    ['an address with a port', request('10.1.2.3', '198.51.100.1:5123'), '198.51.100.1'],
    ['IPv6, bracketed with a port', request('10.1.2.3', '[2001:db9::5]:443'), '2001:db9::5'],
    ['an IPv4-mapped balancer address', request('::ffff:10.1.2.3', '198.51.100.1'), '198.51.100.1'],
    ['a trusted balancer without the header', request('10.1.2.3'), '10.1.2.3'],
    ['garbage from a trusted balancer: the last address known', request('10.1.2.3', 'unknown'), '10.1.2.3'],
    ['all hops trusted: the leftmost', request('10.1.2.3', '10.4.4.4, 192.0.2.7'), '10.4.4.4'],
  ])('%s', (_, req, expected) => {
    expect(behindBalancers(req)).toBe(expected);
  });

  it('without TRUSTED_PROXIES, X-Forwarded-For is ignored', () => {
    expect(clientAddressResolver([])(request('10.1.2.3', '198.51.100.1'))).toBe('10.1.2.3');
    expect(clientAddressResolver([])(request('::ffff:127.0.0.1'))).toBe('127.0.0.1');
  });

  it('an IPv6 client is budgeted by its /64', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2:bbbb::9'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('198.51.100.1')).toBe('198.51.100.1');
  });
});

describe.each([
  ['behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1)', '127.0.0.1'],
  ['without TRUSTED_PROXIES', ''],
])('the failed-authentication budget %s', (_, trusted) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ records: smallDataset(), env: { AUTH_FAILURES_PER_MINUTE: '2', TRUSTED_PROXIES: trusted } });
  });
  afterAll(() => server?.close());
  const guess = (forwardedFor: string) =>
    server
      .call('GET', '/v1/companies/acme-corp/hello', { token: 'plk_guess_0000000000000000', headers: { 'x-forwarded-for': forwardedFor } })
      .then((r) => r.status);

  it(trusted ? 'is kept per client, and a forged header changes nothing' : "is the connection's, whatever the header says", async () => {
    expect(await guess('198.51.100.1')).toBe(401);
    expect(await guess('198.51.100.1')).toBe(401);
    if (trusted) {
      expect(await guess('198.51.100.1')).toBe(429); // its budget is spent
      expect(await guess('198.51.100.2')).toBe(401); // another client's is not
      expect(await guess('198.51.100.2, 198.51.100.1')).toBe(429); // forging a new address to the left of the real one does not help
      const limited = await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both, headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect(limited.status).toBe(429);
      expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both, headers: { 'x-forwarded-for': '198.51.100.3' } })).status).toBe(
        200,
      );
    } else {
      expect(await guess('198.51.100.2')).toBe(429); // one budget for the connection's address
    }
  });
});
