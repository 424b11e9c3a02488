// The example app (examples/react) as a consumer team would have it: the packed client
// installed into a copy of it, type-checked and built by Vite, served as static files, and
// driven in Chromium (Debian's, by playwright-core) against `npm start` (a search, its next
// page by cursor, a person, hello, a refusal) and against the mock (`npm run mock`).
// Skipped, saying why, without /usr/bin/chromium.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type NpmScriptRun, runNpmScript } from '../helpers/npmScripts.js';
import { packClient, run } from '../helpers/packedClient.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`tests/client/example.browser.slow.test.ts skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);

const repo = resolve(import.meta.dirname, '../..');
/** The token `npm start` prints for its demo data (development only). */
const demoToken = 'plk_demo_every_company_6f1d0c9e2b';
const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** The built app's files, as any static host serves them (index.html for the root). */
function serveStatic(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

/** Opens the app and connects it to `baseUrl` with `token`. */
async function openApp(page: Page, origin: string, baseUrl: string, token: string): Promise<void> {
  await page.goto(origin);
  await page.getByLabel('Service').fill(baseUrl);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Connect' }).click();
}

const personIds = (page: Page) => page.getByTestId('person').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-person-id')!));

describe.runIf(hasChromium)('the example React app, built from the packed client, in Chromium', () => {
  let work: string;
  let app: { server: Server; origin: string };
  let service: NpmScriptRun;
  let mock: NpmScriptRun;
  let serviceUrl: string;
  let mockUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'lookup-example-'));
    const { tarball } = await packClient(work);
    const dir = join(work, 'app');
    cpSync(join(repo, 'examples', 'react'), dir, { recursive: true, filter: (path) => !/[/\\](node_modules|dist)$/.test(path) });
    // The app as its team has it: the client from the release tarball, the rest pinned.
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    manifest.dependencies['@lookup/client'] = `file:${tarball}`;
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    await run('npm', ['install', '--no-package-lock', '--prefer-offline', '--no-audit', '--no-fund'], dir);
    await run('npm', ['run', '--silent', 'build'], dir); // tsc --noEmit, then vite build
    app = await serveStatic(join(dir, 'dist'));

    const [servicePort, mockPort] = await Promise.all([freePort(), freePort()]);
    service = runNpmScript('start', { cwd: repo, env: { PORT: String(servicePort), CORS_ORIGINS: app.origin, LOG_LEVEL: 'info' } });
    mock = runNpmScript('mock', { cwd: repo, env: { MOCK_PORT: String(mockPort) } });
    [, serviceUrl] = (await service.waitFor(/"url":"(http:\/\/[^"]+)".*"msg":"listening"/)) as [string, string];
    await mock.waitFor(/Lookup mock \(Prism\) on http/);
    mockUrl = `http://127.0.0.1:${mockPort}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    service?.kill();
    mock?.kill();
    await new Promise((done) => (app ? app.server.close(done) : done(undefined)));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('against npm start: hello, a search, its next page by cursor, a person, a refusal', async () => {
    const page = await browser.newPage();
    const searches: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v1/persons/search')) searches.push(request.postDataJSON());
    });
    await openApp(page, app.origin, serviceUrl, demoToken);
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe('Hello, acme-corp!');

    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByTestId('person').count()).toBe(5);
    const total = Number((await page.getByTestId('count').textContent())!.split(' of ')[1]);
    expect(total).toBeGreaterThan(10);
    const first = await personIds(page);

    await page.getByRole('button', { name: 'More' }).click();
    await expect.poll(() => page.getByTestId('person').count()).toBe(10);
    const both = await personIds(page);
    expect(both.slice(0, 5)).toEqual(first);
    expect(new Set(both).size).toBe(10); // the next page, not the first again
    expect(await page.getByTestId('count').textContent()).toBe(`10 of ${total}`);
    // The second page was asked by cursor, never by offset.
    expect(searches).toEqual([{ limit: 5 }, { limit: 5, cursor: expect.any(String) }]);

    const seventh = page.getByTestId('person').nth(6);
    const name = await seventh.textContent();
    await seventh.click();
    await expect.poll(() => page.getByTestId('person-name').textContent()).toBe(name);
    expect(await page.locator('article[aria-label="person"]').getAttribute('data-person-id')).toBe(both[6]);
    expect(await page.getByTestId('employment').count()).toBeGreaterThan(0);

    // A refusal, as the app shows a LookupApiError.
    await page.getByLabel('Company').fill('no-such-company');
    await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/^forbidden \(HTTP 403\) Request [0-9a-f-]{36}$/);
    await page.close();
  });

  it('against the mock: hello, a search and a person from the contract’s examples', async () => {
    const page = await browser.newPage();
    await openApp(page, app.origin, mockUrl, 'any-token-the-mock-accepts');
    await expect.poll(() => page.getByTestId('greeting').textContent()).toMatch(/^Hello, /);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByTestId('person').count()).toBeGreaterThan(0);
    await page.getByTestId('person').first().click();
    await expect.poll(() => page.getByTestId('employment').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('person-name').textContent()).toBeTruthy();
    await page.close();
  });
});
