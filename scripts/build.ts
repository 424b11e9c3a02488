// `npm run build`: the server compiled to JavaScript, to run with `node` alone (no tsx, no
// TypeScript at run time): `node dist/server/main.js`, and the CLIs beside it
// (`node dist/server/cli/credentials.js ...`). The files the server reads at run time go
// where the compiled code looks for them: the migrations and the derived data's upkeep
// source where db/schema/migrate.js reads them (schema/migrations/ and derived/), the bundled
// contracts in generated/, the contract prepared for the server (prepareContract.ts) in
// generated/prepared/, and Redoc's browser bundle beside http/docs.js. node_modules stays at
// the project root, where node finds it from dist/.
// Usage: tsx scripts/build.ts [outDir] (default dist; must lie inside the project, next to node_modules).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_REDOC_SCRIPT, defaultRedocScriptPath } from '../server/http/docs.js';
import { prepareContract } from './prepareContract.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function build(outDir = join(root, 'dist')): void {
  if (relative(root, outDir).startsWith('..')) throw new Error(`${outDir} is outside ${root}: node would not find node_modules from there`);
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(root, 'tsconfig.build.json'), '--outDir', outDir], { cwd: root, stdio: 'inherit' });
  const migrations = join(outDir, 'server', 'db', 'schema', 'migrations');
  mkdirSync(migrations, { recursive: true });
  cpSync(join(root, 'server', 'db', 'schema', 'migrations'), migrations, { recursive: true });
  cpSync(join(root, 'server', 'db', 'derived', 'upkeep.sql'), join(outDir, 'server', 'db', 'derived', 'upkeep.sql'));
  for (const bundle of readdirSync(join(root, 'generated')).filter((f) => f.endsWith('.yaml'))) {
    cpSync(join(root, 'generated', bundle), join(outDir, 'generated', bundle));
  }
  prepareContract(join(outDir, 'generated', 'prepared'));
  // Redoc's browser bundle comes with a dev dependency (@redocly/cli): copied beside the
  // built docs module, /docs renders where only production dependencies are installed.
  const redoc = defaultRedocScriptPath();
  if (!redoc) throw new Error("Redoc's bundle (@redocly/cli) is not installed: run npm ci before the build");
  cpSync(redoc, join(outDir, 'server', 'http', BUILT_REDOC_SCRIPT));
  if (!existsSync(join(outDir, 'server', 'main.js'))) throw new Error('the build wrote no server/main.js');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`built ${relative(process.cwd(), process.argv[2] ? resolve(process.argv[2]) : join(root, 'dist')) || '.'}: run it with node dist/server/main.js`);
}
