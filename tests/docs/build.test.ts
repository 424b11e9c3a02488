// `npm run docs`: the static reference for consumers is one self-contained HTML file. Runs the
// script exactly as package.json has it (into a temporary file) and inspects the result.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'docs-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run docs', () => {
  it('writes one HTML file that loads nothing from another origin, with telemetry off', () => {
    const script: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.docs;
    expect(script).toContain('--output docs/index.html');
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
    // ...and what Redoc would fetch at runtime anyway (its footer logo) the page's policy refuses.
    expect(html).toContain(`http-equiv="Content-Security-Policy" content="default-src 'none';`);
    expect(html).toMatch(/__redoc_options = \{[^}]*"disableTelemetry":true/);
    // The public contract, prerendered: the operation is in the markup, the drafts are not.
    expect(html).toContain('Hello world');
    expect(html).not.toContain('Search persons (draft)');
  }, 60_000);
});
