// What every request carries (bearer token, User-Agent) and where it goes (the base URL),
// observed on a real local server.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import * as client from '../../client/src/index.js';
import { clientVersion, createLookupClient } from '../../client/src/index.js';
import { contractPaths, readContractDocument } from '../../server/contract.js';
import { helloAcme as hello, helloAcmeOk as ok, useLocalServer } from '../helpers/localServer.js';

const server = useLocalServer();

describe('bearer token', () => {
  it('sends a fixed token as Authorization: Bearer', async () => {
    server.script(ok);
    await createLookupClient({ baseUrl: server.url, token: 'tok_123' }).GET('/v1/companies/{companyId}/hello', hello);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer tok_123');
  });

  it('asks a token function before every request, so it can refresh', async () => {
    server.script(ok);
    let n = 0;
    const client = createLookupClient({ baseUrl: server.url, token: async () => `tok_${++n}` });
    await client.GET('/v1/companies/{companyId}/hello', hello);
    await client.GET('/v1/companies/{companyId}/hello', hello);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok_1', 'Bearer tok_2']);
  });

  it("keeps a call's own Authorization header", async () => {
    server.script(ok);
    const client = createLookupClient({ baseUrl: server.url, token: 'default' });
    await client.GET('/v1/companies/{companyId}/hello', { ...hello, headers: { Authorization: 'Bearer other' } });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer other');
  });

  it('rejects an empty or multi-line token before anything is sent', async () => {
    server.script(ok);
    expect(() => createLookupClient({ baseUrl: server.url, token: '' })).toThrow(/token/);
    expect(() => createLookupClient({ baseUrl: server.url, token: 'a\r\nX-Evil: 1' })).toThrow(/token/);
    const lazy = createLookupClient({ baseUrl: server.url, token: () => '' });
    await expect(lazy.GET('/v1/companies/{companyId}/hello', hello)).rejects.toThrow(/token/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('User-Agent', () => {
  const g = globalThis as { document?: unknown };
  afterEach(() => {
    delete g.document;
  });

  it('is lookup-client/<package version>, after the app name when one is given', async () => {
    server.script(ok);
    await createLookupClient({ baseUrl: server.url, token: 't' }).GET('/v1/companies/{companyId}/hello', hello);
    await createLookupClient({ baseUrl: server.url, token: 't', userAgent: 'billing-app/2.1' }).GET('/v1/companies/{companyId}/hello', hello);
    const { version } = JSON.parse(readFileSync('client/package.json', 'utf8'));
    expect(clientVersion).toBe(version);
    expect(server.requests.map((r) => r.headers['user-agent'])).toEqual([`lookup-client/${version}`, `billing-app/2.1 lookup-client/${version}`]);
  });

  it('is left to the browser where there is a document (browsers own that header)', async () => {
    server.script(ok);
    g.document = {};
    await createLookupClient({ baseUrl: server.url, token: 't' }).GET('/v1/companies/{companyId}/hello', hello);
    expect(server.requests[0]!.headers['user-agent']).not.toMatch(/lookup-client/);
  });
});

describe('the base URL', () => {
  // The client names an environment only once the contract gives it a real host. Today the
  // sandbox and production hosts are placeholders (*.example.com, which resolve nowhere), so
  // the client has no named environment and a base URL is required. When the contract's
  // servers get real hosts, this fails until the client offers them (or says why not).
  it("is the consumer's choice while the contract's sandbox and production hosts are placeholders", () => {
    const servers = readContractDocument(contractPaths.public).servers as { url: string; description: string }[];
    expect(servers.map((s) => s.description.split(' ')[0])).toEqual(['sandbox', 'production']);
    for (const server of servers) {
      expect(new URL(server.url).hostname, server.url).toMatch(/\.example\.com$/);
      expect(server.description).toMatch(/placeholder/);
    }
    expect(Object.keys(client)).not.toContain('environments');
    expect(() => createLookupClient({ baseUrl: 'sandbox', token: 't' })).toThrow(/baseUrl must be an http\(s\) URL/);
  });

  it('accept a base URL, with or without a path prefix or trailing slash, and a custom fetch', async () => {
    server.script(ok);
    const seen: string[] = [];
    const fetch = (request: Request) => {
      seen.push(request.url);
      return globalThis.fetch(request);
    };
    await createLookupClient({ baseUrl: `${server.url}/`, token: 't', fetch }).GET('/v1/companies/{companyId}/hello', hello);
    await createLookupClient({ baseUrl: new URL('/gateway/', server.url), token: 't' }).GET('/v1/companies/{companyId}/hello', hello);
    expect(seen).toEqual([`${server.url}/v1/companies/acme-corp/hello`]);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/companies/acme-corp/hello', '/gateway/v1/companies/acme-corp/hello']);
  });

  it('reject anything else when the client is created', () => {
    for (const baseUrl of ['prod', 'ftp://files.example.com', 'https://x.example.com/?a=1']) {
      expect(() => createLookupClient({ baseUrl, token: 't' }), baseUrl).toThrow(TypeError);
    }
  });
});
