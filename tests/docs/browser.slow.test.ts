// /docs of the real running server in a real browser (Debian's chromium, driven by
// playwright-core): every operation of the contract that server publishes renders with
// every one of its examples, the page asks nothing of any other origin (no CDN, no telemetry,
// no logo), logs no error to the console, and the error tables show every code whole (not
// `invalid_` / `api_key`). A sandbox server (drafts off: the public bundle) saves
// test-results/docs.png; a development one (drafts on: the full bundle)
// test-results/docs-drafts.png; the page `npm run docs` writes, opened from disk,
// test-results/docs-static.png (test-results/ is gitignored: CI keeps them as artifacts).
// Skipped, saying why, where /usr/bin/chromium is not installed (.ci/run installs it).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPaths, readContractDocument } from '../../server/contract.js';
import { startTestServer } from '../helpers/server.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`tests/docs/browser.slow.test.ts skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
interface Example {
  summary: string | undefined;
  value: unknown;
}
interface OperationToCheck {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  tag: string;
  requestExamples: Example[];
  responseExamples: { status: string; examples: Example[] }[];
}

/** What the docs must show, read from the bundle itself ($refs to components/examples resolved). */
function operationsOf(document: Record<string, any>): OperationToCheck[] {
  const deref = (node: any): any =>
    node?.$ref
      ? deref(
          node.$ref
            .split('/')
            .slice(1)
            .reduce((at: any, key: string) => at[key], document),
        )
      : node;
  const examples = (media: any): Example[] => Object.values(media?.examples ?? {}).map((ex: any) => ({ summary: deref(ex).summary, value: deref(ex).value }));
  return Object.entries<any>(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => {
      const op = item[method];
      return {
        operationId: op.operationId,
        method,
        path,
        summary: op.summary,
        tag: op.tags[0],
        requestExamples: examples(deref(op.requestBody)?.content?.['application/json']),
        responseExamples: Object.entries<any>(op.responses)
          .map(([status, response]) => ({ status, examples: examples(deref(response).content?.['application/json']) }))
          .filter((r) => r.examples.length > 0),
      };
    }),
  );
}

/** The example shown in a sample panel is this one: its top-level keys and scalar values are there. */
async function expectExampleShown(panel: Locator, example: Example) {
  const code = panel.locator('[data-testid="source-code"]').first();
  const expected =
    example.value !== null && typeof example.value === 'object' && !Array.isArray(example.value)
      ? Object.entries(example.value).flatMap(([key, value]) => [`"${key}"`, ...(value === null || typeof value !== 'object' ? [JSON.stringify(value)] : [])])
      : [JSON.stringify(example.value)];
  for (const fragment of expected) await expect.poll(() => code.innerText(), { timeout: 10_000 }).toContain(fragment);
}

/** Shows each example of a panel in turn (through its "Example" menu when there are several) and checks it. */
async function checkExamples(page: Page, panel: Locator, examples: Example[]) {
  for (const example of examples) {
    if (examples.length > 1) {
      await panel.getByRole('button', { name: 'Example' }).click();
      await page.getByRole('menuitem', { name: example.summary!, exact: true }).click();
      await expect.poll(() => panel.getByRole('button', { name: 'Example' }).innerText()).toBe(example.summary);
    }
    await expectExampleShown(panel, example);
  }
}

async function checkOperation(page: Page, op: OperationToCheck) {
  // Through the sidebar, as a reader would: the tag, then the operation.
  const sidebar = page.locator('[data-component-name="Menu/Menu"]').first();
  await sidebar.getByRole('link', { name: op.tag, exact: true }).click();
  const link = sidebar.getByRole('link', { name: new RegExp(`^${op.summary.replace(/[()]/g, '\\$&')}\\s*${op.method}$`, 'i') });
  const href = (await link.getAttribute('href'))!;
  await link.click();
  const section = page.locator(`[data-section-id="${href.slice(1)}"]`);
  await expect.poll(() => section.innerText(), { timeout: 15_000 }).toContain(op.summary);
  expect(await section.innerText()).toContain(op.path);

  const panels = section.locator('[data-testid="right-panel"] [data-component-name="Panel/Panel"]');
  if (op.requestExamples.length > 0) await checkExamples(page, panels.filter({ hasText: 'Payload' }).first(), op.requestExamples);
  const responses = panels.filter({ has: page.locator('[data-component-name="Panel/PanelHeaderTitle"]', { hasText: /^Response$/ }) }).first();
  for (const { status, examples } of op.responseExamples) {
    await responses.getByRole('button', { name: status, exact: true }).click();
    await checkExamples(page, responses, examples);
  }
}

/**
 * What the page does wrong, as it happens: uncaught errors and any console error (a load the
 * Content-Security-Policy refused, a failed request, Redoc's own), and every request that tried
 * to leave the page's own place, refused or not.
 */
function watch(page: Page, isOwn: (url: string) => boolean): { errors: string[]; elsewhere: string[] } {
  const errors: string[] = [];
  const elsewhere: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('request', (request) => {
    if (!isOwn(request.url()) && !/^(blob|data):/.test(request.url())) elsewhere.push(request.url());
  });
  return { errors, elsewhere };
}

describe.skipIf(!hasChromium)('/docs in chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    { environment: 'sandbox', draftsEnabled: false, bundle: contractPaths.public, screenshot: 'test-results/docs.png' },
    { environment: 'development', draftsEnabled: true, bundle: contractPaths.full, screenshot: 'test-results/docs-drafts.png' },
  ])(
    'renders every operation and example of the contract on a $environment server',
    async ({ environment, draftsEnabled, bundle, screenshot }) => {
      const server = await startTestServer({ env: { APP_ENV: environment } });
      expect(server.config.draftsEnabled).toBe(draftsEnabled);
      const origin = new URL(server.url).origin;
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      try {
        const { errors, elsewhere } = watch(page, (url) => url.startsWith(origin));

        const response = await page.goto(`${origin}/docs`);
        // The server passes on the responder's policy: it is what keeps the page on this origin.
        expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
        const document = readContractDocument(bundle);
        await expect.poll(() => page.locator('h1').first().innerText(), { timeout: 20_000 }).toContain(document.info.title);
        const operations = operationsOf(document);
        expect(operations.map((op) => op.operationId).sort()).toEqual(
          draftsEnabled ? ['getPerson', 'hello', 'listChanges', 'searchEmployees', 'searchPersons'] : ['hello'],
        );
        // The codes that key the markdown tables (the error table's above all) are each on one line.
        const codes = page.locator('[data-component-name="Markdown/Markdown"] td:first-child code');
        expect(await codes.count()).toBeGreaterThan(5);
        const broken = await codes.evaluateAll((elements) => elements.filter((e) => e.getClientRects().length > 1).map((e) => e.textContent));
        expect(broken, 'codes broken across lines').toEqual([]);
        for (const op of operations) await checkOperation(page, op);
        if (!draftsEnabled) expect(await page.locator('[data-component-name="Menu/Menu"]').first().innerText()).not.toMatch(/draft/i);

        mkdirSync('test-results', { recursive: true });
        await page.screenshot({ path: screenshot, fullPage: true });
        expect(errors).toEqual([]);
        expect(elsewhere).toEqual([]);
      } finally {
        await page.close();
        await server.close();
      }
    },
    120_000,
  );

  it('npm run docs: the static page renders the public contract, logs no error and loads nothing from elsewhere', async () => {
    const out = mkdtempSync(join(tmpdir(), 'docs-static-'));
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      const file = join(out, 'index.html');
      execFileSync(join('node_modules', '.bin', 'tsx'), ['scripts/docs/build.ts', file], { stdio: 'pipe' });
      const { errors, elsewhere } = watch(page, (url) => url.startsWith('file:'));
      await page.goto(pathToFileURL(file).href);
      const document = readContractDocument(contractPaths.public);
      await expect.poll(() => page.locator('h1').first().innerText(), { timeout: 20_000 }).toContain(document.info.title);
      await expect.poll(() => page.locator('body').innerText()).toContain('Hello world');
      mkdirSync('test-results', { recursive: true });
      await page.screenshot({ path: 'test-results/docs-static.png', fullPage: true });
      expect(errors).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await page.close();
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
