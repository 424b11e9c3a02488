// What every request carries (bearer token, User-Agent) and where it goes (environments),
// observed on a real local server.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientVersion, createLookupClient, environments, type Environment } from '../../client/src/index.js';
import { readContractDocument } from '../../server/contract.js';
import { json, startLocalServer, type LocalServer } from './helpers/local-server.js';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(() => server.close());

const hello = { params: { path: { companyId: 'acme-corp' } } } as const;
const ok = json(200, { message: 'Hello, acme-corp!' });

describe('bearer token', () => {
  it('sends a fixed token as Authorization: Bearer', async () => {
    server.script(ok);
    await createLookupClient({ environment: server.url, token: 'tok_123' }).GET('/v1/companies/{companyId}/hello', hello);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer tok_123');
  });

  it('asks a token function before every request, so it can refresh', async () => {
    server.script(ok);
    let n = 0;
    const client = createLookupClient({ environment: server.url, token: async () => `tok_${++n}` });
    await client.GET('/v1/companies/{companyId}/hello', hello);
    await client.GET('/v1/companies/{companyId}/hello', hello);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok_1', 'Bearer tok_2']);
  });

  it("keeps a call's own Authorization header", async () => {
    server.script(ok);
    const client = createLookupClient({ environment: server.url, token: 'default' });
    await client.GET('/v1/companies/{companyId}/hello', { ...hello, headers: { Authorization: 'Bearer other' } });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer other');
  });

  it('rejects an empty or multi-line token before anything is sent', async () => {
    server.script(ok);
    expect(() => createLookupClient({ environment: server.url, token: '' })).toThrow(/token/);
    expect(() => createLookupClient({ environment: server.url, token: 'a\r\nX-Evil: 1' })).toThrow(/token/);
    const lazy = createLookupClient({ environment: server.url, token: () => '' });
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
    await createLookupClient({ environment: server.url, token: 't' }).GET('/v1/companies/{companyId}/hello', hello);
    await createLookupClient({ environment: server.url, token: 't', userAgent: 'billing-app/2.1' }).GET('/v1/companies/{companyId}/hello', hello);
    const { version } = JSON.parse(readFileSync('client/package.json', 'utf8'));
    expect(clientVersion).toBe(version);
    expect(server.requests.map((r) => r.headers['user-agent'])).toEqual([`lookup-client/${version}`, `billing-app/2.1 lookup-client/${version}`]);
  });

  it('is left to the browser where there is a document (browsers own that header)', async () => {
    server.script(ok);
    g.document = {};
    await createLookupClient({ environment: server.url, token: 't' }).GET('/v1/companies/{companyId}/hello', hello);
    expect(server.requests[0]!.headers['user-agent']).not.toMatch(/lookup-client/);
  });
});

describe('environments', () => {
  it("are the contract's sandbox and production servers", () => {
    const servers = readContractDocument().servers as { url: string; description: string }[];
    const byName = (name: string) => servers.find((s) => s.description.startsWith(name))?.url;
    expect(environments).toEqual({ sandbox: byName('sandbox'), production: byName('production') });
  });

  it('accept a base URL, with or without a path prefix or trailing slash, and a custom fetch', async () => {
    server.script(ok);
    const seen: string[] = [];
    const fetch = (request: Request) => {
      seen.push(request.url);
      return globalThis.fetch(request);
    };
    await createLookupClient({ environment: `${server.url}/`, token: 't', fetch }).GET('/v1/companies/{companyId}/hello', hello);
    await createLookupClient({ environment: new URL('/gateway/', server.url), token: 't' }).GET('/v1/companies/{companyId}/hello', hello);
    expect(seen).toEqual([`${server.url}/v1/companies/acme-corp/hello`]);
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/companies/acme-corp/hello', '/gateway/v1/companies/acme-corp/hello']);
  });

  it('reject anything else when the client is created', () => {
    for (const environment of ['prod', 'ftp://files.example.com', 'https://x.example.com/?a=1']) {
      expect(() => createLookupClient({ environment: environment as Environment, token: 't' }), environment).toThrow(TypeError);
    }
  });
});
