// `npm run docs`: the static reference for consumers is one self-contained HTML file. Runs the
// script exactly as package.json has it (into a temporary file) and inspects the result: it
// loads nothing from elsewhere, and it shows the public contract, which says nothing of the
// draft operations.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contractPaths, readContractDocument } from '../../server/contract.js';
import { draftMentions } from '../helpers/draftMentions.js';

const root = resolve(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'docs-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run docs', () => {
  it('writes one HTML file that loads nothing from another origin, with telemetry off', () => {
    const script: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.docs;
    expect(script).toMatch(/ docs\/index\.html$/);
    const output = join(out, 'index.html');
    const started = performance.now();
    execFileSync('sh', ['-c', script.replace('docs/index.html', output)], {
      cwd: root,
      env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH}`, NO_UPDATE_NOTIFIER: '1' },
      stdio: 'pipe',
    });
    const html = readFileSync(output, 'utf8');
    console.info(`npm run docs: ${((performance.now() - started) / 1000).toFixed(1)} s, ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB`);

    // Scripts, stylesheets, fonts and images are inline: no src/href/url() to another origin...
    expect(html).not.toMatch(/<(script|link|img)\b[^>]*\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import\s+(url\()?\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@font-face[^}]*url\(\s*["']?(https?:)?\/\//i);
    expect(html).not.toContain('cdn.redocly.com/redoc/'); // the default build imports Redoc from there
    expect(html).not.toContain('cdn.redoc.ly'); // its logo, inlined instead
    // ...and the page's policy would refuse anything else.
    expect(html).toContain(`http-equiv="Content-Security-Policy" content="default-src 'none';`);
    expect(html).toMatch(/__redoc_options = \{[^}]*"disableTelemetry":true/);
    // The public contract, whole and nothing else: the page embeds exactly the public bundle...
    expect(embeddedDefinition(html)).toEqual(readContractDocument(contractPaths.public));
    expect(html).toContain('Hello world');
    // ...and nothing on it names a draft operation or a code only they send.
    expect(draftMentions(html)).toEqual([]);
  }, 60_000);
});

/** The OpenAPI document Redoc's page carries: the JSON object that starts at `{"openapi":`. */
function embeddedDefinition(html: string): unknown {
  const start = html.indexOf('{"openapi":');
  expect(start, 'no embedded definition').toBeGreaterThan(-1);
  let depth = 0;
  let inString = false;
  for (let i = start; i < html.length; i++) {
    const c = html[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return JSON.parse(html.slice(start, i + 1));
  }
  throw new Error('embedded definition does not end');
}
