// CORS in a real browser (Debian's chromium, driven by playwright-core): a page on another
// origin calls the real server. From an origin in CORS_ORIGINS, the browser's preflights
// pass, the page reads answers, errors included, and the headers a client needs
// (X-Request-Id, RateLimit-*, Retry-After, WWW-Authenticate). From any other origin, the
// browser keeps every answer from the page. In development a page this machine serves
// (a frontend's dev server on localhost) needs no CORS_ORIGINS; in sandbox it is refused.
// The pages' names (app.test, other.test) lead to 127.0.0.1 by Chromium's host rules.
// Skipped, saying why, without /usr/bin/chromium. tests/serving/cors.test.ts has the
// headers one by one.
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
  let port: number;
  let pageOrigin: string;
  let otherOrigin: string;
  let api: TestServer;
  let development: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // The web app's own server: one blank page, reachable as several origins (by name and by IP).
    pages = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>app</title>'));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    port = (pages.address() as AddressInfo).port;
    pageOrigin = `http://app.test:${port}`;
    otherOrigin = `http://other.test:${port}`;
    // Sandbox, where only the listed origin may call (drafts on, to search from the page).
    api = await startTestServer({
      records: smallDataset(),
      env: { APP_ENV: 'sandbox', DRAFTS_ENABLED: 'true', CORS_ORIGINS: pageOrigin, RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '10' },
    });
    development = await startTestServer({ database: api.database });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--host-resolver-rules=MAP app.test 127.0.0.1, MAP other.test 127.0.0.1',
      ],
    });
    page = await browser.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await development?.close();
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
  describe('in development, from a page this machine serves (a dev server on localhost)', () => {
    const searchFrom = (url: string) =>
      fetchFromPage(page, `${url}/v1/persons/search`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens.both}`, 'Content-Type': 'application/json' },
        body: '{"lastName":"dur"}',
      });

    it.each(['localhost', '127.0.0.1'])('on %s: the preflight passes and the page reads the answer, with no CORS_ORIGINS', async (host) => {
      await page.goto(`http://${host}:${port}/`);
      expect(development.config.corsOrigins).toEqual([]);
      const res = expectSeen('POST', '/v1/persons/search', await searchFrom(development.url));
      expect(res.status).toBe(200);
      expect((res.body as { persons: unknown[] }).persons.length).toBeGreaterThan(0);
      expect(res.headers['x-request-id']).toBeTruthy();
    });

    it('the same page gets nothing from a sandbox server, which allows only its listed origin', async () => {
      await page.goto(`http://localhost:${port}/`);
      expect(await searchFrom(api.url)).toHaveProperty('blocked');
    });

    it('a page on another machine gets nothing from the development server', async () => {
      await page.goto(`${otherOrigin}/`);
      expect(await searchFrom(development.url)).toHaveProperty('blocked');
    });
  });
});
