// A long-running npm script as a process manager runs it: `npm run <script>` in a process
// group of its own, stopped by SIGTERM sent to npm's pid only (what a container runtime
// or a supervisor told to run `npm start` does).
import { spawn } from 'node:child_process';
import net from 'node:net';

export { freePort } from '../../support/serviceProcess.js';

export interface NpmScriptRun {
  /** Everything npm and the script wrote. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM to npm's pid; resolves with npm's exit code once npm has exited. */
  terminate(): Promise<number | null>;
  /** Whether any process of the script's group is still alive. */
  groupAlive(): boolean;
  /**
   * Resolves once the output pipes are closed and read to their end: the script's processes
   * hold them, so their last lines may still be in transit when the group has just died.
   */
  closed(): Promise<void>;
  /** SIGKILL to the whole group (afterAll, whatever happened). */
  kill(): void;
}

export function runNpmScript(script: string, options: { cwd: string; env: Record<string, string> }): NpmScriptRun {
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    detached: true, // its own process group, whose id is npm's pid
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const group = child.pid!;
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // ('close' comes after npm's exit and the end of both pipes, whoever else held them.)
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

  return {
    output: () => output,
    async waitFor(pattern, timeoutMs = 90_000) {
      const started = Date.now();
      for (;;) {
        const match = output.match(pattern);
        if (match) return match;
        if (child.exitCode !== null || Date.now() - started > timeoutMs) throw new Error(`no ${pattern} from npm run ${script}; output:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async terminate() {
      child.kill('SIGTERM');
      return exited;
    },
    closed: () => closed,
    groupAlive() {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    },
    kill() {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

/** Whether nothing listens on the port any more. */
export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
