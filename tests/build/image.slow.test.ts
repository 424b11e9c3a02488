// The container image (Dockerfile), built and run as an operator runs it: its own commands
// migrate a throwaway PostgreSQL database, import a small file and create a credential; the
// server, non-root, on a read-only root with the audit spool on a volume, answers hello, a
// person and /docs; SIGTERM stops it with exit 0. No devDependency is inside, and the image
// adds at most 120 MB to NODE_IMAGE. NODE_IMAGE is a stand-in built here (nodeImage.ts):
// no image registry is reachable from these machines.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, smallDataset } from '../fixtures/small.js';
import { contractCall } from '../helpers/call.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { imageSize, missingTools, PODMAN, podman, standInNodeImage, ULIMITS } from '../helpers/nodeImage.js';
import { freePort } from '../helpers/npmScripts.js';

const root = new URL('../../', import.meta.url).pathname;
const IMAGE = 'localhost/lookup-test:image-test';
const BUDGET_BYTES = 120 * 1000 * 1000;
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
const run = promisify(execFile);

const missing = missingTools() ?? (process.env.DATABASE_URL ? undefined : 'DATABASE_URL is not set (the image runs against PostgreSQL)');
if (missing && process.env.CI === 'true') throw new Error(`the image test cannot run: ${missing}`);

/** `podman run --rm` of one of the image's commands on the host's network; a failing exit resolves too. */
async function inImage(args: string[], env: Record<string, string>, volumes: string[] = []) {
  const flags = [
    'run',
    '--rm',
    '--network',
    'host',
    '--read-only',
    ...ULIMITS,
    ...volumes.flatMap((v) => ['-v', v]),
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
  ];
  return run('podman', [...PODMAN, ...flags, IMAGE, ...args], { timeout: 120_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error) => ({ code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string }),
  );
}

describe.skipIf(missing)(`the container image${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-image-'));
  const container = `lookup-image-test-${process.pid}`;
  let database: ThrowawayDatabase;
  let standIn: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    standIn = standInNodeImage((line) => console.log(`stand-in NODE_IMAGE: ${line}`));
    // npm inside the build reaches the registry only with this machine's CA bundle: mounted
    // read-only, and named by an npmrc passed as a build secret (never in a layer).
    const npmrc = join(dir, 'npmrc');
    writeFileSync(npmrc, existsSync(CA_BUNDLE) ? `cafile=${CA_BUNDLE}\n` : '');
    const ca = existsSync(CA_BUNDLE) ? ['-v', `${CA_BUNDLE}:${CA_BUNDLE}:ro`] : [];
    podman(['build', ...ULIMITS, '--build-arg', `NODE_IMAGE=${standIn}`, '--secret', `id=npmrc,src=${npmrc}`, ...ca, '-t', IMAGE, root], {
      timeoutMs: 1_500_000,
    });
    database = await throwawayDatabase('postgres', { migrate: false });
    env = { DATABASE_URL: database.url! };
  }, 1_800_000);

  afterAll(async () => {
    await run('podman', [...PODMAN, 'rm', '--force', container]).catch(() => {});
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('adds at most 120 MB to NODE_IMAGE', () => {
    const added = imageSize(IMAGE) - imageSize(standIn);
    console.log(
      `image size: ${(imageSize(IMAGE) / 1e6).toFixed(1)} MB, of which NODE_IMAGE ${(imageSize(standIn) / 1e6).toFixed(1)} MB: adds ${(added / 1e6).toFixed(1)} MB`,
    );
    expect(added).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('holds the built server and its production dependencies, no devDependency, no sources or tests', async () => {
    const listing = await inImage(
      [
        'node',
        '-e',
        `const fs = require('node:fs'); const top = fs.readdirSync('node_modules'); console.log(JSON.stringify({ app: fs.readdirSync('.').sort(), packages: top.flatMap((n) => n.startsWith('@') ? fs.readdirSync('node_modules/' + n).map((s) => n + '/' + s) : [n]).filter((n) => fs.existsSync('node_modules/' + n + '/package.json')) }))`,
      ],
      {},
    );
    expect(listing.code, listing.stderr).toBe(0);
    const { app, packages } = JSON.parse(listing.stdout) as { app: string[]; packages: string[] };
    expect(app).toEqual(['dist', 'node_modules', 'package.json']);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(packages.filter((name) => Object.hasOwn(manifest.devDependencies, name))).toEqual([]);
    for (const name of Object.keys(manifest.dependencies)) expect(packages).toContain(name);
  }, 120_000);

  it('migrates, imports and creates a credential with its own commands, each saying what it did', async () => {
    const migrated = await inImage(['node', 'dist/server/cli/migrate.js'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/^migrated PostgreSQL: applied 001_baseline\.sql, .*derived\/upkeep\.sql\n$/);

    // Readable by the image's user (uid 1000), as a file handed to a container must be.
    const data = join(dir, 'data');
    mkdirSync(data, { mode: 0o755 });
    writeFileSync(
      join(data, 'small.ndjson'),
      smallDataset()
        .map((r) => JSON.stringify(r))
        .join('\n'),
      { mode: 0o644 },
    );
    const imported = await inImage(['node', 'dist/server/cli/import.js', '/data/small.ndjson'], env, [`${data}:/data:ro`]);
    expect(imported.code, imported.stderr).toBe(0);

    const created = await inImage(
      ['node', 'dist/server/cli/credentials.js', 'create', 'image-test', 'acme-corp', '--fields', 'name,email', '--purpose', 'tests: the image'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.match(/^token \(shown once, store it now\): (\S+)$/m)?.[1];
    expect(token).toBeDefined();
    writeFileSync(join(dir, 'token'), token!);
  }, 300_000);

  it('serves hello, a person and /docs as a non-root PID 1 on a read-only root, and stops on SIGTERM with exit 0', async () => {
    const token = readFileSync(join(dir, 'token'), 'utf8');
    const spool = mkdtempSync(join(dir, 'spool-'));
    chownSync(spool, 1000, 1000);
    const port = await freePort();
    // Drafts (Get person) are served in development only; NODE_ENV follows APP_ENV.
    const serving = { ...env, APP_ENV: 'development', NODE_ENV: 'development', DEMO_DATA: 'false', MIGRATE_ON_START: 'false', PORT: String(port) };
    const flags = ['run', '-d', '--name', container, '--network', 'host', '--read-only', ...ULIMITS, '-v', `${spool}:/var/lib/lookup/audit-spool`];
    podman([...flags, ...Object.entries(serving).flatMap(([k, v]) => ['-e', `${k}=${v}`]), IMAGE]);
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (
      (await fetch(`${url}/readyz`)
        .then((r) => r.status)
        .catch(() => 0)) !== 200
    ) {
      if (Date.now() > deadline) throw new Error(`not ready within 60 s:\n${podman(['logs', container])}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    const call = contractCall(url);
    expect((await call('GET', '/v1/companies/acme-corp/hello', { token })).body).toEqual({ message: 'Hello, acme-corp!' });
    const person = await call('GET', `/v1/persons/${ids.emile}`, { token });
    expect(person.status).toBe(200);
    expect(person.body.person.id).toBe(ids.emile);
    // The credential covers acme-corp only: that employment and no other.
    expect(person.body.person.employments.map((e: { id: string }) => e.id)).toEqual([ids.emileAcme]);
    // Created for names and emails alone: the rest is withheld.
    expect(person.body.withheld).toEqual(['dateOfBirth', 'gender', 'phone', 'address', 'externalIds', 'membership', 'participation', 'coverage']);
    const docs = await fetch(`${url}/docs`);
    const page = await docs.text();
    const script = /import \{ init \} from "(\/docs\/redoc\.[0-9a-f]{16}\.js)"/.exec(page)?.[1];
    expect(script, 'the page loads Redoc from the server').toBeDefined();
    expect((await fetch(url + script)).status).toBe(200);

    const pid1 = podman(['exec', container, 'sh', '-c', 'grep ^Uid: /proc/1/status; tr "\\0" " " < /proc/1/cmdline']);
    expect(pid1).toMatch(/^Uid:\s+1000\s/);
    expect(pid1).toMatch(/\nnode --max-semi-space-size=8 dist\/server\/main\.js/);
    expect(() => podman(['exec', container, 'touch', '/app/dist/written'])).toThrow(/Read-only file system/);

    podman(['stop', '--time', '30', container], { timeoutMs: 60_000 });
    expect(podman(['inspect', '--format', '{{.State.ExitCode}}', container]).trim()).toBe('0');
    expect(podman(['logs', container])).toMatch(/"msg":"stopped"/);
    // The person response's audit entry went through the spool on the volume to the database.
    const audited = await database.db.query<{ fields: string[]; purpose: string }>('SELECT fields, purpose FROM access_audit');
    expect(audited.length).toBeGreaterThanOrEqual(1);
    expect(audited[0]).toEqual({ fields: ['name', 'email'], purpose: 'tests: the image' });
  }, 180_000);
});
