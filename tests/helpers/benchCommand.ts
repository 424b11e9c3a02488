// `npm run bench` as its own process, as an operator runs it (it pins itself to a core
// with taskset): node with tsx's loader on bench/main.ts, everything it wrote kept for the
// failure message.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface BenchRun {
  exitCode: number | null;
  /** stdout and stderr, as they came. */
  output: string;
}

export async function runBenchCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<BenchRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/main.ts', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // ('close', not 'exit': the last lines may still be in the pipes when the process has exited.)
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { exitCode, output };
}
