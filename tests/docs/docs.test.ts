// The docs responder on the real generated bundles: which contract it publishes where,
// that every answer is ready-made, and that the page loads nothing from elsewhere.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { contractPaths, readContractDocument } from '../../server/contract.js';
import { createDocsResponder, defaultRedocScriptPath } from '../../server/http/docs.js';
import { inlineRedocLogo } from '../../server/http/redoc-logo.js';
import { draftMentions, draftMentionsInDocument } from '../helpers/draftMentions.js';

const operationIds = (doc: any) =>
  Object.values(doc.paths)
    .flatMap((item: any) => Object.values(item).map((op: any) => op.operationId))
    .sort();
const text = (body: Buffer | string) => body.toString();

describe.each([
  {
    draftsEnabled: false,
    bundle: contractPaths.public,
    operations: ['hello'],
    summaries: ['Hello world'],
    absent: ['Search persons (draft)', 'Get person (draft)'],
  },
  {
    draftsEnabled: true,
    bundle: contractPaths.full,
    operations: ['getPerson', 'hello', 'listChanges', 'searchEmployees', 'searchPersons'],
    summaries: ['Hello world', 'Search persons (draft)', 'Get person (draft)'],
    absent: [],
  },
])('docs with drafts $draftsEnabled', ({ draftsEnabled, bundle, operations, summaries, absent }) => {
  const respond = createDocsResponder({ draftsEnabled });

  it('serves the bundle as YAML, unchanged', () => {
    const yaml = respond('/openapi.yaml')!;
    expect(yaml).toMatchObject({ status: 200, contentType: 'application/yaml; charset=utf-8', headers: { 'Cache-Control': 'no-cache' } });
    expect(text(yaml.body)).toBe(readFileSync(bundle, 'utf8'));
    expect(operationIds(parse(text(yaml.body)))).toEqual(operations);
  });

  it('serves the same bundle as JSON that parses', () => {
    const json = respond('/openapi.json')!;
    expect(json).toMatchObject({ status: 200, contentType: 'application/json; charset=utf-8', headers: { 'Cache-Control': 'no-cache' } });
    const document = JSON.parse(text(json.body));
    expect(document).toEqual(readContractDocument(bundle));
    expect(operationIds(document)).toEqual(operations);
  });

  it('serves an HTML reference of that bundle that loads only from this server', () => {
    const page = respond('/docs')!;
    expect(page).toMatchObject({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'Cache-Control': 'no-cache' } });
    const html = text(page.body);
    for (const summary of summaries) expect(html).toContain(summary);
    for (const summary of absent) expect(html).not.toContain(summary);
    // No script, stylesheet, font or image from another origin.
    expect(html).not.toMatch(/<(script|link|img)\b[^>]*\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
    expect(respond('/docs/')).toBe(page);
    expect(respond('/docs?from=readme')).toBe(page);
  });

  it('serves the Redoc script the page imports, cacheable for good under its content hash', () => {
    const html = text(respond('/docs')!.body);
    const url = /import \{ init \} from "(\/docs\/redoc\.[0-9a-f]{16}\.js)"/.exec(html)?.[1];
    expect(url).toBeDefined();
    const script = respond(url!)!;
    expect(script).toMatchObject({
      status: 200,
      contentType: 'text/javascript; charset=utf-8',
      headers: { 'Cache-Control': 'public, max-age=31536000, immutable' },
    });
    expect(text(script.body)).toContain('export{RedocStandalone,hydrate,init}');
    expect(respond('/docs/redoc.0000000000000000.js')).toBeUndefined(); // a stale URL is not the page
  });

  it("allows exactly the page's own inline script in its Content-Security-Policy", () => {
    const page = respond('/docs')!;
    const inline = /<script type="module">([\s\S]*?)<\/script>/.exec(text(page.body))![1]!;
    const csp = page.headers['Content-Security-Policy']!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'self' 'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    expect(csp).toContain("img-src 'self' data: blob:");
  });

  it('answers nothing else', () => {
    for (const path of ['/', '/doc', '/docs/hello', '/openapi.yml', '/v1/companies/acme/hello']) expect(respond(path)).toBeUndefined();
  });
});

describe('the public docs (drafts off)', () => {
  const respond = createDocsResponder({ draftsEnabled: false });

  it('say nothing of the draft operations: not the page, not the contract it serves', () => {
    expect(draftMentions(text(respond('/docs')!.body))).toEqual([]);
    expect(draftMentionsInDocument(JSON.parse(text(respond('/openapi.json')!.body)))).toEqual([]);
  });

  it('serve Redoc with its logo inlined, so the page asks cdn.redoc.ly for nothing', () => {
    const html = text(respond('/docs')!.body);
    const script = text(respond(/import \{ init \} from "([^"]+)"/.exec(html)![1]!)!.body);
    expect(script).not.toContain('cdn.redoc.ly');
    expect(script).toContain(inlineRedocLogo);
    expect(html).toContain('td:first-child code { white-space: nowrap; }');
  });
});

describe('createDocsResponder', () => {
  it('finds the Redoc build that @redocly/cli ships', () => {
    expect(defaultRedocScriptPath()).toMatch(/@redocly\/cli\/lib\/chunks\/redoc\.standalone\.js$/);
  });

  it('without Redoc installed, still answers /docs with links to the contract', () => {
    const respond = createDocsResponder({ draftsEnabled: false, redocScriptPath: '/nonexistent/redoc.standalone.js' });
    const html = text(respond('/docs')!.body);
    expect(html).toContain('<a href="/openapi.yaml">openapi.yaml</a>');
    expect(html).not.toContain('<script');
    expect(respond('/openapi.json')!.status).toBe(200);
  });

  it('builds everything in well under a second, so the server starts fast', () => {
    const started = performance.now();
    createDocsResponder({ draftsEnabled: true });
    const elapsed = performance.now() - started;
    console.info(`createDocsResponder (full bundle): ${elapsed.toFixed(1)} ms`);
    expect(elapsed).toBeLessThan(1000);
  });
});
