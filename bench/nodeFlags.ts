// Node's flags in a package.json script, so the bench starts a process exactly as an
// operator's `npm run <script>` does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

export function nodeFlagsOf(script: string): string[] {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const tokens = scripts[script]!.split(/\s+/);
  // (Not `--import tsx`, the loader a script may name: the caller starts node with its own.)
  return tokens.filter((t, i) => t.startsWith('--') && t !== '--import' && tokens[i - 1] !== '--import');
}
