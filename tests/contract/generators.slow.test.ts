// The contract in other teams' toolchains: five popular TypeScript generators (pinned in
// package.json) generate from both bundles, and the output must compile under `tsc --strict`
// and keep what the contract says: nulls (`participation.decision`), literals (error codes),
// formats (an employment's `id` is a uuid, checked at run time through the zod schemas), and no
// localhost as the default base URL of a public client. Fails when the contract stops being
// portable. The probes that state the expected types are in fixtures/generators/.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractPaths } from '../../server/contract.js';

const exec = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const bin = (name: string) => join(repo, 'node_modules', '.bin', name);
// openapi-typescript-codegen's bin is called `openapi`, like Redocly CLI's: whichever npm
// links last wins node_modules/.bin/openapi, so it is called by its own path.
const codegenBin = join(repo, 'node_modules', 'openapi-typescript-codegen', 'bin', 'index.js');
const bundles = { public: contractPaths.public, full: contractPaths.full } as const;

/** Each generator's command line, as its README gives it, writing into `out`. */
const generators: Record<string, (bundle: string, out: string) => [string, string[]]> = {
  'openapi-typescript-codegen': (bundle, out) => [process.execPath, [codegenBin, '--input', bundle, '--output', out, '--client', 'fetch']],
  'openapi-zod-client': (bundle, out) => [bin('openapi-zod-client'), [bundle, '-o', join(out, 'client.ts')]],
  'hey-api': (bundle, out) => [bin('openapi-ts'), ['-i', bundle, '-o', out]],
  orval: (bundle, out) => [bin('orval'), ['--input', bundle, '--output', join(out, 'api.ts'), '--client', 'fetch']],
  'swagger-typescript-api': (bundle, out) => [bin('swagger-typescript-api'), ['generate', '-p', bundle, '-o', out, '-n', 'api.ts']],
};

// Inside node_modules, so that the generated code finds its runtime imports (zod, @zodios/core).
let work: string;
let diagnostics: string[] = [];
beforeAll(async () => {
  const cache = join(repo, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  work = mkdtempSync(join(cache, 'generators-'));
  await Promise.all(
    Object.entries(generators).flatMap(([name, command]) =>
      Object.entries(bundles).map(async ([api, bundle]) => {
        const out = join(work, `${name}-${api}`);
        mkdirSync(out, { recursive: true });
        const [file, args] = command(bundle, out);
        await exec(file, args, { cwd: work, env: { ...process.env, NO_UPDATE_NOTIFIER: '1' }, maxBuffer: 16 << 20 }).catch((error) => {
          throw new Error(`${name} failed on the ${api} bundle:\n${error.stderr || error.stdout || error.message}`);
        });
      }),
    ),
  );
  cpSync(join(import.meta.dirname, 'fixtures', 'generators'), join(work, 'probes'), { recursive: true });
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['**/*.ts'],
    }),
  );
  // One tsc over every output and probe; its diagnostics are sorted out per generator below.
  const tsc = await exec(bin('tsc'), ['-p', work, '--pretty', 'false'], { cwd: work, maxBuffer: 16 << 20 }).catch((error) => error);
  diagnostics = String(tsc.stdout)
    .split('\n')
    .filter((line) => /error TS\d+/.test(line));
}, 180_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const errorsIn = (prefix: string) => diagnostics.filter((line) => line.startsWith(prefix));
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

describe('the contract in other generators', () => {
  it.each(Object.keys(generators))('%s: output compiles under --strict and keeps nulls, literals and formats', (name) => {
    expect(errorsIn(`${name}-public/`), 'public bundle').toEqual([]);
    expect(errorsIn(`${name}-full/`), 'full bundle').toEqual([]);
    expect(errorsIn(`probes/${name}.ts`), 'probes').toEqual([]);
  });

  it('the probes can fail: tsc refuses every type the output does not have', () => {
    const refusals = readFileSync(join(work, 'probes', 'must-fail.ts'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('// refused'));
    expect(refusals.length).toBeGreaterThan(0);
    expect(errorsIn('probes/must-fail.ts')).toHaveLength(refusals.length);
    expect(diagnostics.filter((line) => !line.startsWith('probes/must-fail.ts'))).toEqual([]);
  });

  it('openapi-zod-client validates ids as uuids and accepts a null personId and decision', async () => {
    const { schemas } = await import(join(work, 'openapi-zod-client-full', 'client.ts'));
    const id = '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11';
    expect(schemas.Employee.shape.id.safeParse(id).success).toBe(true);
    expect(schemas.Employee.shape.id.safeParse('not-a-uuid').success).toBe(false);
    expect(schemas.Employee.shape.personId.safeParse(null).success).toBe(true);
    expect(schemas.Employee.shape.personId.safeParse(id).success).toBe(true);
    expect(schemas.Participation.safeParse({ decision: null, decidedAt: null }).success).toBe(true);
    expect(schemas.Participation.safeParse({ decision: 'maybe', decidedAt: null }).success).toBe(false);
  });

  it('no client generated from the public bundle defaults to localhost', () => {
    for (const name of Object.keys(generators)) {
      const files = filesUnder(join(work, `${name}-public`));
      expect(files.length, name).toBeGreaterThan(0);
      for (const file of files) expect(readFileSync(file, 'utf8'), relative(work, file)).not.toMatch(/localhost|127\.0\.0\.1/);
    }
  });
});
