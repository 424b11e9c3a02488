// `npm run client:build`: client/dist as consumers install it, flat, in two module formats:
//   dist/esm/   ES modules (import, bundlers), with their .d.ts
//   dist/cjs/   CommonJS (require), with their .d.ts; dist/cjs/package.json says "commonjs"
// Each holds index, drafts and the modules they use side by side, and generated/ with the
// contract's types. tsc compiles from the repository root (the client imports those types from
// generated/), so it writes client/src/... and generated/... under its outDir; this script
// moves them flat and points the declarations' imports of the contract types at generated/.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'client', 'dist');
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const formats = {
  esm: [], // client/package.json is "type": "module": NodeNext emits ES modules
  cjs: ['--module', 'commonjs', '--moduleResolution', 'node10', '--verbatimModuleSyntax', 'false'],
};

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

rmSync(dist, { recursive: true, force: true });
for (const [format, flags] of Object.entries(formats)) {
  const staging = join(dist, '.tsc', format);
  execFileSync(tsc, ['-p', join(root, 'client', 'tsconfig.build.json'), '--outDir', staging, ...flags], { stdio: 'inherit' });
  const out = join(dist, format);
  cpSync(join(staging, 'client', 'src'), out, { recursive: true });
  // Only the declarations: the contract types are type-only, their .js would be empty modules.
  cpSync(join(staging, 'generated'), join(out, 'generated'), { recursive: true, filter: (path) => !path.endsWith('.js') });
  for (const file of filesUnder(out).filter((path) => path.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8');
    const flat = text.replaceAll(`'../../generated/`, `'./generated/`).replaceAll(`"../../generated/`, `"./generated/`);
    if (/['"]\.\.\/\.\.\//.test(flat)) throw new Error(`${file} still imports from outside the package`);
    if (flat !== text) writeFileSync(file, flat);
  }
}
writeFileSync(join(dist, 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
rmSync(join(dist, '.tsc'), { recursive: true, force: true });
console.log(`client/dist: ${filesUnder(dist).length} files (esm, cjs)`);
