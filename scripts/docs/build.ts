// `npm run docs`: docs/index.html, the public contract as one self-contained page.
// redocly build-docs prerenders it with Redoc inlined (--inlineBundle) into our template, which
// adds a Content-Security-Policy; then Redoc's logo is inlined as on the server's /docs (see
// server/http/redoc-logo.ts), so the page loads nothing from elsewhere and logs no error.
// Usage: tsx scripts/docs/build.ts [output] (default docs/index.html).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractPaths } from '../../server/contract.js';
import { withInlineRedocLogo } from '../../server/http/redoc-logo.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const output = resolve(process.argv[2] ?? join(root, 'docs', 'index.html'));

execFileSync(
  join(root, 'node_modules', '.bin', 'redocly'),
  ['build-docs', contractPaths.public, '--inlineBundle', '--template', join(root, 'scripts', 'docs', 'template.hbs'), '--output', output],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1' } },
);
writeFileSync(output, withInlineRedocLogo(readFileSync(output, 'utf8')));
console.log(`wrote ${output}`);
