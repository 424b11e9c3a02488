// The client as consumers get it: build it, pack it, and npm install the .tgz into one scratch
// project per kind of consumer (fixtures/consumers/, which know nothing of this repository):
//   esm           "type": "module", NodeNext              import  -> dist/esm
//   cjs-nodenext  "type": "commonjs", NodeNext            require -> dist/cjs (types via exports)
//   cjs-node10    CommonJS, node10 resolution (no exports) require -> dist/cjs (types via types/typesVersions);
//                 the same app as cjs-nodenext (its src/ is copied in), compiled the old way
//   bundler       Bundler resolution, DOM types only, bundled by esbuild for the browser
// Each is type-checked under --strict (drafts are a compile error in the default client), then
// run against a real local HTTP server. The installs run side by side, offline where npm's
// cache allows.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type LocalServer, startLocalServer } from '../helpers/localServer.js';
import { packClient, run } from '../helpers/packedClient.js';

const repo = resolve(import.meta.dirname, '../..');
const fixtures = join(import.meta.dirname, 'fixtures', 'consumers');

/** How each consumer compiles (or bundles) its app and runs it against `url`; prints one JSON line. */
const consumers: Record<string, { build: (app: string) => Promise<unknown>; start: (app: string, url: string) => Promise<string> }> = {
  esm: {
    build: (app) => run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app),
    start: (app, url) => run(process.execPath, ['dist/main.js', url], app),
  },
  'cjs-nodenext': {
    build: (app) => run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app),
    start: (app, url) => run(process.execPath, ['dist/main.js', url], app),
  },
  'cjs-node10': {
    build: (app) => run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app),
    start: (app, url) => run(process.execPath, ['dist/main.js', url], app),
  },
  bundler: {
    build: async (app) => {
      await run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
      await run(
        join(app, 'node_modules/.bin/esbuild'),
        ['src/app.ts', '--bundle', '--platform=browser', '--format=esm', '--outfile=dist/app.js', '--log-level=warning'],
        app,
      );
    },
    start: (app, url) =>
      run(
        process.execPath,
        ['--input-type=module', '-e', `const { greet } = await import('./dist/app.js'); console.log(JSON.stringify(await greet(${JSON.stringify(url)})));`],
        app,
      ),
  },
};

let work: string;
let server: LocalServer;
let tarball: string;
let packedFiles: string[];
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'lookup-consumers-'));
  server = await startLocalServer();
  server.script((req, res, received) => {
    const authorized = received.headers.authorization === 'Bearer consumer-token';
    if (!authorized) return json(401, { error: 'invalid_api_key' }, { 'WWW-Authenticate': 'Bearer' })(req, res, received);
    if (req.url === '/v1/companies/acme-corp/hello') return json(200, { message: 'Hello, acme-corp!' })(req, res, received);
    return json(403, { error: 'forbidden' })(req, res, received);
  });
  ({ tarball, files: packedFiles } = await packClient(work));
  // Every consumer installs, compiles and bundles at once: most of the time is npm and tsc.
  // All of them finish before a failure is thrown, so that none still writes in `work` while
  // afterAll removes it.
  const builds = await Promise.allSettled(
    Object.entries(consumers).map(async ([kind, consumer]) => {
      const app = join(work, kind);
      cpSync(join(fixtures, kind), app, { recursive: true });
      if (kind === 'cjs-node10') cpSync(join(fixtures, 'cjs-nodenext', 'src'), join(app, 'src'), { recursive: true });
      await run('npm', ['install', '--no-package-lock', '--prefer-offline', '--no-audit', '--no-fund', tarball], app);
      await consumer.build(app);
    }),
  );
  const failed = builds.find((build) => build.status === 'rejected');
  if (failed) throw failed.reason;
}, 300_000);
afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed @lookup/client', () => {
  it('is laid out flat: an ES-module and a CommonJS build, each with its types and the contract types', () => {
    const flat = ['index', 'drafts', 'react-query'].flatMap((entry) =>
      ['esm', 'cjs'].flatMap((format) => [`dist/${format}/${entry}.js`, `dist/${format}/${entry}.d.ts`]),
    );
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'LICENSE',
        ...flat,
        'dist/cjs/package.json',
        'dist/esm/generated/types.public.d.ts',
        'dist/cjs/generated/types.full.d.ts',
      ]),
    );
    expect(packedFiles.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(f))).toEqual([]);
    expect(packedFiles.filter((f) => f.includes('/client/') || f.includes('/src/'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(repo, 'client', 'package.json'), 'utf8'));
    expect(manifest.license).toBe('MIT');
  });

  it('is ready to publish: public, with provenance, TanStack an optional peer, the changelog naming its version', () => {
    const manifest = JSON.parse(readFileSync(join(repo, 'client', 'package.json'), 'utf8'));
    expect(tarball.endsWith(`lookup-client-${manifest.version}.tgz`)).toBe(true);
    expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
    expect(manifest.peerDependencies).toEqual({ '@tanstack/react-query': '^5.80.0' });
    expect(manifest.peerDependenciesMeta).toEqual({ '@tanstack/react-query': { optional: true } });
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(readFileSync(join(repo, 'client', 'CHANGELOG.md'), 'utf8')).toContain(`## ${manifest.version}\n`);
  });

  it.each(Object.keys(consumers))('installs into a %s project, type-checks and calls a real server', async (kind) => {
    const before = server.requests.length;
    const out = JSON.parse(await consumers[kind]!.start(join(work, kind), server.url));
    expect(out).toMatchObject({ message: 'Hello, acme-corp!', denied: 'no access to this company' });
    if (kind !== 'bundler') expect(out.thrown).toBe('forbidden 403'); // unwrap's LookupApiError, from the build that loaded
    const version = JSON.parse(readFileSync(join(repo, 'client', 'package.json'), 'utf8')).version;
    const sent = server.requests.slice(before).map((r) => [r.url, r.headers['user-agent']]);
    expect(sent.slice(0, 2)).toEqual([
      ['/v1/companies/acme-corp/hello', `consumer-app/1.0 lookup-client/${version}`],
      ['/v1/companies/globex/hello', `consumer-app/1.0 lookup-client/${version}`],
    ]);
    // Which build each one loaded: ES modules for import, CommonJS for require.
    const installed = join(work, kind, 'node_modules', '@lookup', 'client', 'dist');
    if (kind === 'esm') expect(fileURLToPath(out.loaded)).toBe(join(installed, 'esm', 'index.js'));
    if (kind.startsWith('cjs')) expect(out.loaded).toEqual([join(installed, 'cjs', 'index.js'), join(installed, 'cjs', 'drafts.js')]);
    if (kind === 'bundler') {
      const bundle = readFileSync(join(work, kind, 'dist', 'app.js'), 'utf8');
      expect(bundle).toContain('lookup-client/'); // the package is inside the bundle...
      expect(bundle).not.toMatch(/\brequire\(|from ["']@lookup|from ["']openapi-fetch/); // ...whole
      expect(bundle).not.toContain(`${sep}cjs${sep}`);
    }
  });
});
