// No function in server/ or bench/ longer than MAX_LINES, nested functions included (a
// function's lines count from its first line to its last, whatever it holds): a longer one
// does several things and reads better as named steps. Run by `npm run lint`; prints each
// offender as file:line name (lines) and exits 1 if there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const MAX_LINES = 100;

const root = fileURLToPath(new URL('../../', import.meta.url));

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** The name a reader finds a function by: its own, its variable's, its property's, or `<anonymous>`. */
function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && (ts.isIdentifier(named.name) || ts.isPrivateIdentifier(named.name) || ts.isStringLiteral(named.name))) return named.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '<anonymous>';
}

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** Every function-like node of `text` longer than `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_LINES): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > max) found.push({ file, name: nameOf(node), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(): number {
  const files = ['server', 'bench'].flatMap((dir) => [...sourceFiles(join(root, dir))]);
  const offenders = files.flatMap((path) => longFunctions(relative(root, path), readFileSync(path, 'utf8')));
  for (const f of offenders) console.error(`${f.file}:${f.line} ${f.name} is ${f.lines} lines; at most ${MAX_LINES}: split it into named steps`);
  return offenders.length ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
