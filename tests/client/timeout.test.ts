// The per-call timeout against a local server that hangs on purpose.
import { describe, expect, it } from 'vitest';
import { createLookupClient } from '../../client/src/index.js';
import { hang, helloAcme as hello, json, helloAcmeOk as ok, useLocalServer } from '../helpers/localServer.js';

const server = useLocalServer();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('timeout', () => {
  it('ends a call the server never answers with a TimeoutError', async () => {
    server.script(hang);
    const client = createLookupClient({ baseUrl: server.url, token: 't', timeoutMs: 300 });
    const started = Date.now();
    await expect(client.GET('/v1/companies/{companyId}/hello', hello)).rejects.toMatchObject({ name: 'TimeoutError' });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3000);
    expect(server.requests).toHaveLength(1); // a timeout is not a network error: no retry
  });

  it('starts with each call, not when the client is created (openapi-fetch #2567)', async () => {
    server.script(ok);
    const client = createLookupClient({ baseUrl: server.url, token: 't', timeoutMs: 200 });
    await sleep(400); // longer than the timeout: a client-level signal would have fired by now
    const { data } = await client.GET('/v1/companies/{companyId}/hello', hello);
    expect(data).toEqual({ message: 'Hello, acme-corp!' });
    const again = await client.GET('/v1/companies/{companyId}/hello', hello);
    expect(again.data).toEqual({ message: 'Hello, acme-corp!' });
  });

  it('covers retry waits: a Retry-After beyond the deadline ends in a TimeoutError', async () => {
    server.script(json(429, { error: 'rate_limited' }, { 'Retry-After': '3' }), ok);
    const client = createLookupClient({ baseUrl: server.url, token: 't', timeoutMs: 400 });
    const started = Date.now();
    await expect(client.GET('/v1/companies/{companyId}/hello', hello)).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  it("keeps the caller's own AbortSignal working", async () => {
    server.script(hang);
    const client = createLookupClient({ baseUrl: server.url, token: 't', timeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(client.GET('/v1/companies/{companyId}/hello', { ...hello, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('can be turned off with Infinity, and rejects nonsense', async () => {
    server.script(ok);
    const client = createLookupClient({ baseUrl: server.url, token: 't', timeoutMs: Infinity });
    expect((await client.GET('/v1/companies/{companyId}/hello', hello)).data).toEqual({ message: 'Hello, acme-corp!' });
    expect(() => createLookupClient({ baseUrl: server.url, token: 't', timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});
