// Retries against a local server that misbehaves on purpose: 429/503 with Retry-After,
// dropped connections. Only reads (GET, HEAD, OPTIONS and the two searches) are retried after a
// network error.
import { describe, expect, it } from 'vitest';
import { createLookupDraftsClient } from '../../client/src/drafts.js';
import { createLookupClient, type RetryOptions } from '../../client/src/index.js';
import { resilientFetch } from '../../client/src/resilient-fetch.js';
import { drop, helloAcme as hello, json, helloAcmeOk as ok, useLocalServer } from '../helpers/localServer.js';

const server = useLocalServer();
const rateLimited = (retryAfter: string) => json(429, { error: 'rate_limited' }, { 'Retry-After': retryAfter });
const client = (retry?: RetryOptions | false) => createLookupClient({ baseUrl: server.url, token: 't', retry });

describe('retries on 429 rate_limited', () => {
  it('waits the Retry-After seconds, then succeeds', async () => {
    server.script(rateLimited('1'), ok);
    const started = Date.now();
    const { data, error } = await client().GET('/v1/companies/{companyId}/hello', hello);
    expect(error).toBeUndefined();
    expect(data).toEqual({ message: 'Hello, acme-corp!' });
    expect(server.requests).toHaveLength(2);
    const gap = server.requests[1]!.at - server.requests[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reads an HTTP-date Retry-After too', async () => {
    server.script(rateLimited(new Date(Date.now() + 1500).toUTCString()), ok);
    const { data } = await client().GET('/v1/companies/{companyId}/hello', hello);
    expect(data).toEqual({ message: 'Hello, acme-corp!' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(400);
  });

  it('is bounded: after the last retry the typed rate_limited error comes back', async () => {
    server.script(rateLimited('0'));
    const { data, error, response } = await client({ retries: 3 }).GET('/v1/companies/{companyId}/hello', hello);
    expect(data).toBeUndefined();
    expect(error?.error).toBe('rate_limited');
    expect(response.headers.get('Retry-After')).toBe('0');
    expect(server.requests).toHaveLength(4);
  });

  it('does not wait longer than maxDelayMs: a longer Retry-After is returned at once', async () => {
    server.script(rateLimited('60'), ok);
    const started = Date.now();
    const { error } = await client({ maxDelayMs: 2000 }).GET('/v1/companies/{companyId}/hello', hello);
    expect(error?.error).toBe('rate_limited');
    expect(server.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('resends a POST body intact (nothing was done on a 429)', async () => {
    server.script(rateLimited('0'), json(200, { asOf: '2026-01-01T00:00:00Z', persons: [], pagination: { limit: 1, offset: 0, total: 0 } }));
    const drafts = createLookupDraftsClient({ baseUrl: server.url, token: 't' });
    const { data } = await drafts.POST('/v1/persons/search', { body: { lastName: 'Durán', limit: 1 } });
    expect(data?.pagination.total).toBe(0);
    expect(server.requests.map((r) => [r.method, r.body])).toEqual([
      ['POST', '{"lastName":"Durán","limit":1}'],
      ['POST', '{"lastName":"Durán","limit":1}'],
    ]);
  });

  it('retries 503 service_unavailable with Retry-After the same way', async () => {
    server.script(json(503, { error: 'service_unavailable' }, { 'Retry-After': '0' }), ok);
    const { data } = await client().GET('/v1/companies/{companyId}/hello', hello);
    expect(data).toEqual({ message: 'Hello, acme-corp!' });
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry other errors', async () => {
    server.script(json(403, { error: 'forbidden' }), ok);
    const { error } = await client().GET('/v1/companies/{companyId}/hello', hello);
    expect(error?.error).toBe('forbidden');
    expect(server.requests).toHaveLength(1);
  });

  it('can be turned off', async () => {
    server.script(rateLimited('0'), ok);
    const { error } = await client(false).GET('/v1/companies/{companyId}/hello', hello);
    expect(error?.error).toBe('rate_limited');
    expect(server.requests).toHaveLength(1);
  });
});

describe('retries on network errors', () => {
  it('retries a GET whose connection was dropped', async () => {
    server.script(drop, drop, ok);
    const { data } = await client({ baseDelayMs: 10 }).GET('/v1/companies/{companyId}/hello', hello);
    expect(data).toEqual({ message: 'Hello, acme-corp!' });
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after the last retry with the network error', async () => {
    server.script(drop);
    await expect(client({ retries: 2, baseDelayMs: 10 }).GET('/v1/companies/{companyId}/hello', hello)).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(3);
  });

  it('retries the searches’ network errors as a GET’s: they take a body but only read', async () => {
    const drafts = createLookupDraftsClient({ baseUrl: `${server.url}/gateway/lookup`, token: 't', retry: { baseDelayMs: 10 } });
    for (const path of ['/v1/persons/search', '/v1/employees/search'] as const) {
      server.script(
        drop,
        drop,
        json(200, { asOf: '2026-01-01T00:00:00Z', [path.includes('persons') ? 'persons' : 'employees']: [], pagination: { limit: 1, offset: 0, total: 0 } }),
      );
      const { data } = await drafts.POST(path, { body: { lastName: 'Durán', limit: 1 } });
      expect(data?.pagination.total).toBe(0);
      expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual(
        Array(3).fill(['POST', `/gateway/lookup${path}`, '{"lastName":"Durán","limit":1}']),
      );
    }
  });

  it('never retries any other POST: it may have been processed', async () => {
    server.script(drop, ok);
    const fetch = resilientFetch((request) => globalThis.fetch(request), { timeoutMs: 5000, retry: { baseDelayMs: 10 }, readPosts: ['/v1/persons/search'] });
    await expect(fetch(new Request(`${server.url}/v1/persons/search/export`, { method: 'POST', body: '{}' }))).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(1);
  });
});
