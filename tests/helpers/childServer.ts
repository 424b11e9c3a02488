// The service as operators run it: `server/main.ts` in its own process (node with tsx's
// loader directly, so signals reach the server and not a wrapper), or the built server
// (`node dist/server/main.js`), its JSON log lines read from stdout. The base URL comes
// from the "listening" line.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildServer {
  process: ChildProcess;
  url: string;
  /** Parsed JSON log lines so far. */
  logs: Record<string, any>[];
  /** Everything written to stdout and stderr, for failure messages. */
  output(): string;
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, any>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the process if it still runs (afterAll). */
  stop(): Promise<void>;
}

/** Node's arguments for the service from source; the built one is `[<outDir>/server/main.js]`. */
export const FROM_SOURCE = ['--import', 'tsx', 'server/main.ts'];

/**
 * `shell`: commands run before node replaces the shell (exec), such as `ulimit -f 64`.
 * Unless `env` names one, each process spools its access audit in a directory of its own,
 * removed when the process has exited.
 */
export async function startChildServer(
  env: Record<string, string>,
  startTimeoutMs = 90_000,
  nodeArgs: string[] = FROM_SOURCE,
  shell?: string,
): Promise<ChildServer> {
  const ownSpoolDir = env.AUDIT_SPOOL_DIR === undefined ? mkdtempSync(join(tmpdir(), 'audit-spool-child-')) : undefined;
  const [command, args] = shell ? ['sh', ['-c', `${shell} && exec "$0" "$@"`, process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
  const child = spawn(command, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      LOG_LEVEL: 'info',
      ...(ownSpoolDir && { AUDIT_SPOOL_DIR: ownSpoolDir }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, any>[] = [];
  let output = '';
  const waiters: { msg: string; resolve: (line: Record<string, any>) => void }[] = [];
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const parsed = JSON.parse(line);
      logs.push(parsed);
      for (const waiter of waiters.filter((w) => w.msg === parsed.msg)) waiter.resolve(parsed);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      if (ownSpoolDir) rmSync(ownSpoolDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );

  const waitForLog = (msg: string, timeoutMs = 10_000) => {
    const seen = logs.find((l) => l.msg === msg);
    if (seen) return Promise.resolve(seen);
    return new Promise<Record<string, any>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${msg}" log line within ${timeoutMs} ms; output:\n${output}`)), timeoutMs);
      waiters.push({ msg, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      void exited.then(() => reject(new Error(`server exited before "${msg}"; output:\n${output}`)));
    });
  };

  const listening = await waitForLog('listening', startTimeoutMs);
  return {
    process: child,
    url: listening.url,
    logs,
    output: () => output,
    waitForLog,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
