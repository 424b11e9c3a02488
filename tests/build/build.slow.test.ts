// `npm run build` and `npm run start:prod`: the server compiled to JavaScript runs with
// node alone (no tsx at run time), finds what it reads at run time (migrations, the
// bundled contracts, Redoc), serves, and stops on SIGTERM delivered to node itself. Built
// once, into a directory of its own inside the project (node_modules must be above it).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../scripts/build.js';
import { demoCredentials } from '../../server/demo/dataset.js';
import { contractCall } from '../helpers/call.js';
import { type ChildServer, startChildServer } from '../helpers/childServer.js';
import { type NpmScriptRun, portFree, runNpmScript } from '../helpers/npmScripts.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the built server', () => {
  let outDir: string;
  let child: ChildServer;
  beforeAll(async () => {
    outDir = mkdtempSync(join(root, '.build-'));
    build(outDir);
    child = await startChildServer({ APP_ENV: 'development', DEMO_DATA: 'true' }, 90_000, [join(outDir, 'server', 'main.js')]);
  }, 180_000);
  afterAll(async () => {
    await child?.stop();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('is plain JavaScript run by node, no tsx loader', () => {
    const argv = readFileSync(`/proc/${child.process.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(argv).toEqual([process.execPath, join(outDir, 'server', 'main.js')]);
    expect(readFileSync(`/proc/${child.process.pid}/environ`, 'utf8')).not.toMatch(/NODE_OPTIONS=.*tsx/);
  });

  it('migrates, loads the demo data and answers the contract, the docs and the health checks', async () => {
    const call = contractCall(child.url);
    const token = demoCredentials[0]!.token;
    expect((await call('GET', '/v1/companies/acme-corp/hello', { token })).body).toEqual({ message: 'Hello, acme-corp!' });
    const search = await call('POST', '/v1/persons/search', { token, body: { lastName: 'dur', limit: 2 } });
    expect(search.status).toBe(200);
    expect(search.body.persons).toHaveLength(2);
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/openapi.yaml', '/docs']) expect((await fetch(child.url + path)).status, path).toBe(200);
    expect(await (await fetch(`${child.url}/docs`)).text()).toContain('/docs/redoc.');
  });

  it('validates with the contract the build prepared (no YAML, no openapi-backend at start)', async () => {
    expect(existsSync(join(outDir, 'generated', 'prepared', 'operations.json'))).toBe(true);
    const call = contractCall(child.url);
    const token = demoCredentials[0]!.token;
    expect((await call('GET', '/v1/companies/-bad/hello', { token })).body).toEqual({ error: 'invalid_company_id' });
    expect((await call('GET', '/v1/persons/not-a-uuid', { token })).body).toEqual({ error: 'invalid_person_id' });
    const typo = await call('POST', '/v1/persons/search', { token, body: { lastname: 'dur', limit: 0 } });
    expect(typo.status).toBe(400);
    expect(typo.body.details).toEqual([
      { path: '/body', message: 'lastname is not a field of this request: did you mean lastName?' },
      { path: '/body/limit', message: 'limit must be at least 1' },
    ]);
    expect((await call('POST', '/v1/persons/search', { token, body: { lastName: 'dur', limit: 1 } })).body.persons).toHaveLength(1);
  });

  it('runs the CLIs too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-built-cli-'));
    try {
      const cli = (name: string, ...args: string[]) =>
        execFileSync(process.execPath, [join(outDir, 'server', 'cli', `${name}.js`), ...args], {
          env: { PATH: process.env.PATH, PGLITE_DATA_DIR: join(dir, 'db'), LOG_LEVEL: 'warn' },
          encoding: 'utf8',
        });
      writeFileSync(join(dir, 'companies.ndjson'), '{"type":"company","id":"acme-corp","name":"Acme"}\n');
      cli('import', join(dir, 'companies.ndjson'));
      expect(cli('credentials', 'create', 'built', 'acme-corp', '--fields', 'all', '--purpose', 'the built command')).toMatch(/plk_/);
      expect(cli('credentials', 'list')).toContain('built');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('stops on SIGTERM sent to it (no npm or tsx in between to swallow it) and exits 0', async () => {
    child.process.kill('SIGTERM');
    const { code } = await child.exited;
    expect(code, child.output()).toBe(0);
    await child.waitForLog('stopped', 0);
  });

  it('`npm run start:prod` stops on a SIGTERM sent to npm: nothing left running, the port free', async () => {
    // The script as package.json has it, run by npm from a directory whose dist/ is this build.
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    const project = mkdtempSync(join(root, '.start-prod-'));
    let run: NpmScriptRun | undefined;
    try {
      writeFileSync(join(project, 'package.json'), JSON.stringify({ private: true, scripts: { 'start:prod': scripts['start:prod'] } }));
      symlinkSync(outDir, join(project, 'dist'));
      run = runNpmScript('start:prod', { cwd: project, env: { PORT: '0', APP_ENV: 'development', LOG_LEVEL: 'info' } });
      const [, url] = await run.waitFor(/"url":"(http:\/\/[^"]+)".*"msg":"listening"/);
      const port = Number(new URL(url!).port);
      await run.terminate();
      await expect.poll(() => run!.groupAlive(), { timeout: 10_000 }).toBe(false);
      await run.closed();
      expect(run.output()).toMatch(/"msg":"stopped"/);
      expect(await portFree(port)).toBe(true);
    } finally {
      run?.kill();
      rmSync(project, { recursive: true, force: true });
    }
  }, 60_000);
});
