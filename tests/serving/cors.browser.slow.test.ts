// CORS in a real browser (Debian's chromium, driven by playwright-core): a page on another
// origin calls the real server. From an origin in CORS_ORIGINS, the browser's preflights
// pass, the page reads answers, errors included, and the headers a client needs
// (X-Request-Id, RateLimit-*, Retry-After, WWW-Authenticate). From any other origin, the
// browser keeps every answer from the page. Skipped, saying why, without /usr/bin/chromium.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDataset, tokens } from '../fixtures/small.js';
import { expectContractResponse } from '../helpers/contract.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`tests/serving/cors.browser.slow.test.ts skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);

interface Seen {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** In the page: fetch, and what its script can read of the answer (or the error the browser gave). */
function fetchFromPage(
  page: Page,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Seen | { blocked: string }> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const res = await fetch(url, init);
        const text = await res.text();
        const headers: Record<string, string> = {};
        res.headers.forEach((value, name) => {
          headers[name] = value;
        });
        return { status: res.status, body: text ? JSON.parse(text) : text, headers };
      } catch (error) {
        return { blocked: String(error) };
      }
    },
    { url, init },
  );
}

describe.runIf(hasChromium)('CORS, from pages in Chromium', () => {
  let pages: Server;
  let pageOrigin: string;
  let otherOrigin: string;
  let api: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // The web app's own server: one blank page, reachable as two origins (by IP and by name).
    pages = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>app</title>'));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const { port } = pages.address() as AddressInfo;
    pageOrigin = `http://127.0.0.1:${port}`;
    otherOrigin = `http://localhost:${port}`;
    api = await startTestServer({ records: smallDataset(), env: { CORS_ORIGINS: pageOrigin, RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '10' } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    page = await browser.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await new Promise((resolve) => pages?.close(resolve));
  });

  const hello = () => `${api.url}/v1/companies/acme-corp/hello`;
  const expectSeen = (method: string, path: string, seen: Seen | { blocked: string }): Seen => {
    expect(seen, JSON.stringify(seen)).not.toHaveProperty('blocked');
    const res = seen as Seen;
    expectContractResponse(method, path, res.status, new Headers(res.headers), res.body);
    return res;
  };

  describe('from a listed origin', () => {
    beforeAll(async () => {
      await page.goto(`${pageOrigin}/`);
    });

    it('calls hello with a token and reads the answer, its request id and its rate-limit headers', async () => {
      const res = expectSeen(
        'GET',
        '/v1/companies/acme-corp/hello',
        await fetchFromPage(page, hello(), { headers: { Authorization: `Bearer ${tokens.both}`, 'X-Request-Id': 'from-the-browser-1' } }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Hello, acme-corp!' });
      expect(res.headers['x-request-id']).toBe('from-the-browser-1');
      expect(res.headers['ratelimit-limit']).toBe('1');
      expect(res.headers['ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.headers['ratelimit-reset']).toMatch(/^\d+$/);
    });

    it('sends a JSON body (a preflighted request) to search', async () => {
      const res = expectSeen(
        'POST',
        '/v1/persons/search',
        await fetchFromPage(page, `${api.url}/v1/persons/search`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${tokens.both}`, 'Content-Type': 'application/json' },
          body: '{"lastName":"dur"}',
        }),
      );
      expect(res.status).toBe(200);
      expect((res.body as { persons: unknown[] }).persons.length).toBeGreaterThan(0);
    });

    it('reads a 401 and its WWW-Authenticate', async () => {
      const res = expectSeen(
        'GET',
        '/v1/companies/acme-corp/hello',
        await fetchFromPage(page, hello(), { headers: { Authorization: 'Bearer plk_not_a_token_00000000000' } }),
      );
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_api_key' });
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });

    it('reads a 429 and its Retry-After, so it can wait as told', async () => {
      let res: Seen | undefined;
      for (let i = 0; i < 30 && res?.status !== 429; i++)
        res = expectSeen('GET', '/v1/companies/acme-corp/hello', await fetchFromPage(page, hello(), { headers: { Authorization: `Bearer ${tokens.acme}` } }));
      expect(res!.status).toBe(429);
      expect(Number(res!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res!.headers['ratelimit-remaining']).toBe('0');
    });
  });

  describe('from an origin that is not listed', () => {
    beforeAll(async () => {
      await page.goto(`${otherOrigin}/`);
    });

    it('gets nothing: not with a token (the preflight fails), not even the health check', async () => {
      expect(await fetchFromPage(page, hello(), { headers: { Authorization: `Bearer ${tokens.both}` } })).toHaveProperty('blocked');
      expect(await fetchFromPage(page, `${api.url}/healthz`)).toHaveProperty('blocked');
    });
  });
});

describe('CORS answers, header by header (no browser needed)', () => {
  const origin = 'https://hr-tools.example.com';
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ records: smallDataset(), env: { CORS_ORIGINS: origin } });
  });
  afterAll(() => api?.close());
  const preflight = (from: string, path = '/v1/persons/search') =>
    api.call('OPTIONS', path, {
      headers: { origin: from, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });

  it('a preflight from a listed origin: 204, its methods and headers allowed for 10 minutes, no token needed', async () => {
    const res = await preflight(origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, X-Request-Id');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull(); // tokens, not cookies
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('a preflight from anywhere else: no permission', async () => {
    const res = await preflight('https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('answers, errors included, name the origin and expose the headers a client needs', async () => {
    const res = await api.call('GET', '/v1/companies/acme-corp/hello', { headers: { origin } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-expose-headers')).toBe(
      'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, WWW-Authenticate',
    );
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('without CORS_ORIGINS nothing changes: no CORS header, no Vary', async () => {
    const plain = await startTestServer({ database: api.database });
    try {
      const res = await plain.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both, headers: { origin } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('vary')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
