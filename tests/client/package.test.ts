// The client as consumers get it: build it, pack it, npm install the .tgz into a separate
// project (fixtures/consumer, which knows nothing of this repository), type-check that
// project as a Node and as a browser app, and run it against a real local HTTP server.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startLocalServer, type LocalServer } from './helpers/local-server.js';

const exec = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const env = { ...process.env, NO_UPDATE_NOTIFIER: '1', npm_config_audit: 'false', npm_config_fund: 'false' };
const run = async (command: string, args: string[], cwd: string) => (await exec(command, args, { cwd, env, maxBuffer: 16 << 20 })).stdout;

let work: string;
let server: LocalServer;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'lookup-consumer-'));
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the packed @lookup/client in a separate consumer project', () => {
  it('installs, type-checks (drafts are a compile error) and calls a real server', async () => {
    await run('npm', ['run', '--silent', 'client:build'], repo);
    const [packed] = JSON.parse(await run('npm', ['pack', './client', '--json', '--pack-destination', work], repo));
    const files: string[] = packed.files.map((f: { path: string }) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/client/src/index.js',
        'dist/client/src/index.d.ts',
        'dist/client/src/drafts.js',
        'dist/client/src/drafts.d.ts',
        'dist/generated/types.public.d.ts',
        'dist/generated/types.full.d.ts',
      ]),
    );
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);

    const app = join(work, 'app');
    cpSync(join(repo, 'tests/client/fixtures/consumer'), app, { recursive: true });
    await run('npm', ['install', '--no-package-lock', '--prefer-offline', join(work, packed.filename)], app);
    const tsc = join(app, 'node_modules/.bin/tsc');
    await Promise.all([run(tsc, ['-p', 'tsconfig.browser.json'], app), run(tsc, ['-p', 'tsconfig.json'], app)]);

    server.script((req, res, received) => {
      const authorized = received.headers.authorization === 'Bearer consumer-token';
      if (!authorized) return json(401, { error: 'invalid_api_key' }, { 'WWW-Authenticate': 'Bearer' })(req, res, received);
      if (req.url === '/v1/companies/acme-corp/hello') return json(200, { message: 'Hello, acme-corp!' })(req, res, received);
      return json(403, { error: 'forbidden' })(req, res, received);
    });
    const out = await run(process.execPath, ['dist/main.js', server.url], app);
    expect(JSON.parse(out)).toEqual({ message: 'Hello, acme-corp!', denied: 'no access to this company' });
    const userAgent = `consumer-app/1.0 lookup-client/${JSON.parse(readFileSync(join(repo, 'client/package.json'), 'utf8')).version}`;
    expect(server.requests.map((r) => [r.url, r.headers['user-agent']])).toEqual([
      ['/v1/companies/acme-corp/hello', userAgent],
      ['/v1/companies/globex/hello', userAgent],
    ]);
  }, 240_000);
});
