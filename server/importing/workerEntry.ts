// How a worker thread of the import is started on its module: under tsx (development,
// tests) the module is TypeScript, so the worker registers tsx's loader first (a worker's
// --import does not apply to its own entry on Node 20); built, it is JavaScript.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const typescript = import.meta.url.endsWith('.ts');
const tsxApi = () => pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs'); // (its ES module build)

/** The Worker arguments for the module `name` (without extension) beside this one. */
export function workerEntry(name: string): { script: string | URL; eval: boolean } {
  return workerEntryAt(new URL(`./${name}`, import.meta.url));
}

/** The Worker arguments for the module at `module` (its URL without extension), as run here: TypeScript under tsx, or built. */
export function workerEntryAt(module: URL): { script: string | URL; eval: boolean } {
  if (!typescript) return { script: new URL(`${module.href}.js`), eval: false };
  const source = `${module.href}.ts`;
  return { script: `import(${JSON.stringify(tsxApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`, eval: true };
}
