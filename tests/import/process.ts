// A command of the import run as an operator runs it and stops it: `npm run import -- …`,
// the command itself, or either under a terminal (`script`), in a process group of its
// own, its output gathered, signalled while it runs.
import { type ChildProcess, spawn } from 'node:child_process';

export interface RunningProcess {
  readonly child: ChildProcess;
  /** stdout and stderr as they came. */
  output(): string;
  /** Resolves once `pattern` is in the output (fails if the process ends first). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** The exit code (a signal's death as 128 + its number). */
  exited: Promise<number>;
  /** Whether a process of its group is alive. */
  groupAlive(): boolean;
}

const signalNumbers: Record<string, number> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

export function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv): RunningProcess {
  const child = spawn(command, args, { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // ('close': exited, and its pipes read to their end.)
  const exited = new Promise<number>((resolve) => child.once('close', (code, signal) => resolve(code ?? 128 + (signalNumbers[signal ?? ''] ?? 0))));
  let done = false;
  void exited.then(() => (done = true));
  return {
    child,
    output: () => output,
    exited,
    async waitFor(pattern, timeoutMs = 120_000) {
      const started = Date.now();
      while (!pattern.test(output)) {
        if (done || Date.now() - started > timeoutMs) throw new Error(`no ${pattern} from ${command} ${args.join(' ')}; output:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    groupAlive() {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    },
  };
}
