// The contract for people and tools, without authentication:
//   /openapi.yaml, /openapi.json   the bundled contract: public where drafts are off, full where on
//   /docs                          the rendered reference (Redoc; deep links are /docs#/<tag>/<operation>)
//   /docs/redoc.<hash>.js          Redoc's standalone browser bundle, served from node_modules
// Everything is read and built once, when the responder is created (a few milliseconds);
// a request is one map lookup. The page renders in the browser from the bundle served here:
// nothing is loaded from a CDN, and Redoc's telemetry is off.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { contractPaths } from '../contractFiles.js';
import { withInlineRedocLogo } from './redoc-logo.js';

export interface DocsResponse {
  status: number;
  contentType: string;
  /** Cache-Control and friends, to set as they are. */
  headers: Record<string, string>;
  body: Buffer | string;
}

export type DocsResponder = (path: string) => DocsResponse | undefined;

export interface DocsOptions {
  draftsEnabled: boolean;
  /** The bundled contract to publish; by default generated/openapi.{public,full}.yaml. */
  bundlePath?: string;
  /** Redoc's standalone browser bundle; by default the one @redocly/cli ships. */
  redocScriptPath?: string;
}

// Documents change with a deploy and must never be served stale: revalidate every time
// (they are small). The script's URL carries its content hash, so it is cached for good.
const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Where the build copies Redoc's bundle, beside this module (scripts/build.ts): production installs lack @redocly/cli. */
export const BUILT_REDOC_SCRIPT = 'redoc.standalone.js';

/**
 * The Redoc build that `redocly build-docs` itself inlines: the built server's copy, else
 * @redocly/cli's; undefined where neither is (dev dependencies not installed, not built).
 */
export function defaultRedocScriptPath(): string | undefined {
  const built = fileURLToPath(new URL(`./${BUILT_REDOC_SCRIPT}`, import.meta.url));
  if (existsSync(built)) return built;
  try {
    const cli = dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json'));
    const script = join(cli, 'lib', 'chunks', 'redoc.standalone.js');
    return existsSync(script) ? script : undefined;
  } catch {
    return undefined;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
// JSON inside <script>: no "</script>" or "<!--" can end or confuse the element.
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const CONTRACT_LINKS = 'The contract itself: <a href="/openapi.yaml">openapi.yaml</a>, <a href="/openapi.json">openapi.json</a>.';

// Redoc lets inline code break anywhere, which splits error codes in the narrow middle column
// (`invalid_` / `api_key`). In tables a code breaks only where text may (a space, a hyphen),
// and the codes a table is keyed by (its first column) not at all: that column widens instead.
export const PAGE_STYLE =
  'body { margin: 0; } td code { word-break: normal !important; overflow-wrap: normal !important; } td:first-child code { white-space: nowrap; }';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — API reference</title>
<link rel="icon" href="data:,">
<style>${PAGE_STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

// What the page may load: its own origin only, so nothing Redoc might add reaches the network
// (its logo is inlined, see redoc-logo.ts; telemetry is disabled). The inline bootstrap script
// is allowed by its hash.
function contentSecurityPolicy(inlineScript: string): string {
  const hash = createHash('sha256').update(inlineScript).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'self' 'sha256-${hash}'`,
    "style-src 'self' 'unsafe-inline'", // Redoc's styled-components inject <style> at runtime
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:", // Redoc's search index runs in a blob: worker
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function redocPage(document: Record<string, any>, scriptUrl: string): { html: string; csp: string } {
  const options = {
    disableTelemetry: true,
    downloadUrls: [
      { title: 'openapi.yaml', url: '/openapi.yaml' },
      { title: 'openapi.json', url: '/openapi.json' },
    ],
  };
  const bootstrap = `
import { init } from ${JSON.stringify(scriptUrl)};
const definition = JSON.parse(document.getElementById('openapi-definition').textContent);
init(definition, ${jsonForScript(options)}, document.getElementById('redoc'));
`;
  const html = page(
    document.info?.title ?? 'API',
    `<noscript><p>This reference needs JavaScript. ${CONTRACT_LINKS}</p></noscript>
<div id="redoc"></div>
<script id="openapi-definition" type="application/json">${jsonForScript(document)}</script>
<script type="module">${bootstrap}</script>`,
  );
  return { html, csp: contentSecurityPolicy(bootstrap) };
}

// Where Redoc is not installed (an install without dev dependencies), say so plainly
// rather than fail the server: the contract files still answer.
function fallbackPage(document: Record<string, any>): string {
  return page(
    document.info?.title ?? 'API',
    `<h1>${escapeHtml(document.info?.title ?? 'API')}</h1>
<p>The rendered reference is not available on this installation: Redoc (from <code>@redocly/cli</code>) is not installed. ${CONTRACT_LINKS}</p>`,
  );
}

export function createDocsResponder(options: DocsOptions): DocsResponder {
  const bundlePath = options.bundlePath ?? (options.draftsEnabled ? contractPaths.full : contractPaths.public);
  const yamlText = readFileSync(bundlePath, 'utf8');
  const document = parse(yamlText) as Record<string, any>;
  const responses = new Map<string, DocsResponse>();

  responses.set('/openapi.yaml', { status: 200, contentType: 'application/yaml; charset=utf-8', headers: { 'Cache-Control': REVALIDATE }, body: yamlText });
  responses.set('/openapi.json', {
    status: 200,
    contentType: 'application/json; charset=utf-8',
    headers: { 'Cache-Control': REVALIDATE },
    body: JSON.stringify(document),
  });

  const scriptPath = options.redocScriptPath ?? defaultRedocScriptPath();
  let docsPage: DocsResponse;
  if (scriptPath && existsSync(scriptPath)) {
    const script = Buffer.from(withInlineRedocLogo(readFileSync(scriptPath, 'utf8')));
    const scriptUrl = `/docs/redoc.${createHash('sha256').update(script).digest('hex').slice(0, 16)}.js`;
    responses.set(scriptUrl, { status: 200, contentType: 'text/javascript; charset=utf-8', headers: { 'Cache-Control': IMMUTABLE }, body: script });
    const { html, csp } = redocPage(document, scriptUrl);
    docsPage = { status: 200, contentType: 'text/html; charset=utf-8', headers: { 'Cache-Control': REVALIDATE, 'Content-Security-Policy': csp }, body: html };
  } else {
    docsPage = { status: 200, contentType: 'text/html; charset=utf-8', headers: { 'Cache-Control': REVALIDATE }, body: fallbackPage(document) };
  }

  return (rawPath) => {
    const path = rawPath.split('?', 1)[0]!;
    const exact = responses.get(path);
    if (exact) return exact;
    // Redoc routes in the fragment (/docs#/hello/hello), so one page serves every section.
    return path === '/docs' || path === '/docs/' ? docsPage : undefined;
  };
}
