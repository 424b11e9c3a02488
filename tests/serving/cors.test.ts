// CORS answers, header by header, as a browser asks them: the preflight (OPTIONS with
// Origin and Access-Control-Request-Method, no token), then the request itself with its
// Origin. An exact origin in CORS_ORIGINS is allowed in every environment; in development,
// so is every page this machine serves (localhost, 127.0.0.1, [::1], any port), and never
// in sandbox or production. tests/serving/cors.browser.slow.test.ts has Chromium enforce it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDataset, tokens } from '../fixtures/small.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const EXPOSED = 'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, WWW-Authenticate';
const listed = 'https://hr-tools.example.com';

const preflight = (api: TestServer, origin: string, path = '/v1/persons/search') =>
  api.call('OPTIONS', path, {
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
const search = (api: TestServer, origin: string) =>
  api.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'dur' }, headers: { origin } });

/** What a browser checks before it lets the page have the answer: the preflight allows the origin, and so does the answer. */
async function browserAllows(api: TestServer, origin: string): Promise<boolean> {
  const pre = await preflight(api, origin);
  const preflightPasses =
    pre.status === 204 &&
    pre.headers.get('access-control-allow-origin') === origin &&
    /\bPOST\b/.test(pre.headers.get('access-control-allow-methods') ?? '') &&
    /Authorization/.test(pre.headers.get('access-control-allow-headers') ?? '') &&
    /Content-Type/.test(pre.headers.get('access-control-allow-headers') ?? '');
  const res = await search(api, origin);
  expect(res.status).toBe(200);
  expect(res.headers.get('vary')).toBe('Origin');
  const answerPasses = res.headers.get('access-control-allow-origin') === origin && res.headers.get('access-control-expose-headers') === EXPOSED;
  expect(preflightPasses, `${origin}: the preflight and the answer agree`).toBe(answerPasses);
  return preflightPasses && answerPasses;
}

const loopbackOrigins = ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3001', 'http://localhost', 'https://localhost:5173'];
// Look-alikes of a local page, and other machines of a local network.
const otherOrigins = [
  'http://localhost.example.com:5173',
  'http://127.0.0.1.nip.io:5173',
  'http://192.168.1.20:5173',
  'http://[::2]:3001',
  'null',
  'https://evil.example',
];

describe('in development, pages this machine serves', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ records: smallDataset() });
  });
  afterAll(() => api?.close());

  it('are allowed on any port, without configuration: the preflight, then the answer', async () => {
    expect(api.config.environment).toBe('development');
    expect(api.config.corsOrigins).toEqual([]);
    for (const origin of loopbackOrigins) expect(await browserAllows(api, origin), origin).toBe(true);
  });

  it('anything else is not', async () => {
    for (const origin of otherOrigins) expect(await browserAllows(api, origin), origin).toBe(false);
  });

  it('errors reach the page too, with the headers a client needs', async () => {
    const res = await api.call('GET', '/v1/companies/acme-corp/hello', { headers: { origin: 'http://localhost:5173' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSED);
  });
});

describe.each(['sandbox', 'production'])('in %s', (environment) => {
  let api: TestServer;
  beforeAll(async () => {
    // Drafts on, so that the same search is answered 200 as in development.
    api = await startTestServer({ records: smallDataset(), env: { APP_ENV: environment, DRAFTS_ENABLED: 'true', CORS_ORIGINS: listed } });
  });
  afterAll(() => api?.close());

  it('pages this machine serves are not allowed; the listed origin is', async () => {
    expect(api.config.corsLoopback).toBe(false);
    for (const origin of loopbackOrigins) expect(await browserAllows(api, origin), origin).toBe(false);
    expect(await browserAllows(api, listed)).toBe(true);
  });
});

describe('CORS_ORIGINS, header by header', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ records: smallDataset(), env: { CORS_ORIGINS: listed } });
  });
  afterAll(() => api?.close());

  it('a preflight from a listed origin: 204, its methods and headers allowed for 10 minutes, no token needed', async () => {
    const res = await preflight(api, listed);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(listed);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, X-Request-Id');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull(); // tokens, not cookies
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('a preflight from anywhere else: no permission', async () => {
    const res = await preflight(api, 'https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('answers, errors included, name the origin and expose the headers a client needs', async () => {
    const res = await api.call('GET', '/v1/companies/acme-corp/hello', { headers: { origin: listed } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(listed);
    expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSED);
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('outside development and without CORS_ORIGINS nothing changes: no CORS header, no Vary', async () => {
    const plain = await startTestServer({ database: api.database, env: { APP_ENV: 'sandbox' } });
    try {
      const res = await plain.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both, headers: { origin: 'http://localhost:5173' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('vary')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
