// The service (or a reference server the bench compares it with) in a process of its own,
// as an operator starts it: the tests (signals, crashes, log lines), the bench (cold
// start, pinned to a core) and the load script all start it here. Ready when its
// "listening" log line names its URL, or, for a server that writes none, when a request
// answers 200. Every process started here is killed if the parent exits first.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Node's arguments for the service from source (node with tsx's loader directly, so signals reach the server); the built one is `[<outDir>/server/main.js]`. */
export const FROM_SOURCE = ['--import', 'tsx', 'server/main.ts'];

export interface ServiceProcessOptions {
  /** Variables on top of `baseEnv`. */
  env: Record<string, string>;
  /** What the process inherits: by default PATH and HOME only, with PORT=0 and LOG_LEVEL=info. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Node's arguments (FROM_SOURCE by default), or `command`: a whole command line (e.g. under taskset). */
  nodeArgs?: string[];
  command?: string[];
  /** Commands a shell runs before node replaces it (exec), such as `ulimit -f 64`. */
  shell?: string;
  /** An IPC channel to the process (the load script's memory probe). */
  ipc?: boolean;
  /** Ready when this answers 200 on 127.0.0.1:`port` (for a server that logs no "listening" line). */
  ready?: { port: number; path: string; token: string };
  startTimeoutMs?: number;
  /** Keep every JSON log line and all output (the default), or drain them once started, keeping the last few KB. */
  keepOutput?: boolean;
}

export interface ServiceProcess {
  process: ChildProcess;
  url: string;
  /** Parsed JSON log lines so far. */
  logs: Record<string, any>[];
  /** What it wrote to stdout and stderr, for failure messages. */
  output(): string;
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, any>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills it at once (SIGKILL) if it still runs. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves to its exit code. */
  terminate(graceMs?: number): Promise<number | null>;
}

/** Every child started here, killed if this process exits early (a failed run, Ctrl-C). */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** `child`, killed when this process exits if it still runs then. */
export function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const base = options.baseEnv ?? { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', LOG_LEVEL: 'info' };
  const [command, ...args] = options.command ?? [process.execPath, ...(options.nodeArgs ?? FROM_SOURCE)];
  const [file, argv] = options.shell ? ['sh', ['-c', `${options.shell} && exec "$0" "$@"`, command!, ...args]] : [command!, args];
  const child = track(
    spawn(file, argv, { cwd: root, env: { ...base, ...options.env }, stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? ['ipc' as const] : [])] }),
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const out = new Output(options.keepOutput ?? true);
  child.stdout!.on('data', (chunk: Buffer) => out.stdout(chunk));
  child.stderr!.on('data', (chunk: Buffer) => out.append(chunk));

  const startTimeoutMs = options.startTimeoutMs ?? 90_000;
  let url: string;
  try {
    url = options.ready ? await answering(options.ready, exited, out, startTimeoutMs) : (await out.waitForLog('listening', exited, startTimeoutMs)).url;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  if (!out.keep) out.stopParsing();
  return {
    process: child,
    url,
    logs: out.logs,
    output: () => out.text,
    waitForLog: (msg, timeoutMs = 10_000) => out.waitForLog(msg, exited, timeoutMs),
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    async terminate(graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const { code } = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** What a process wrote: its JSON log lines parsed (and waited for), and its text. */
class Output {
  readonly logs: Record<string, any>[] = [];
  text = '';
  private pending = '';
  private parsing = true;
  private readonly waiters: { msg: string; resolve: (line: Record<string, any>) => void }[] = [];

  constructor(readonly keep: boolean) {}

  stdout(chunk: Buffer): void {
    this.append(chunk);
    if (!this.parsing) return;
    this.pending += chunk.toString();
    const lines = this.pending.split('\n');
    this.pending = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const parsed = JSON.parse(line);
      this.logs.push(parsed);
      for (const waiter of this.waiters.filter((w) => w.msg === parsed.msg)) waiter.resolve(parsed);
    }
  }

  append(chunk: Buffer): void {
    this.text += chunk.toString();
    if (!this.keep && this.text.length > 8_000) this.text = this.text.slice(-4_000);
  }

  /** From now on stdout is drained unread (a load run's flood of lines costs the load generator nothing). */
  stopParsing(): void {
    this.parsing = false;
    this.pending = '';
  }

  waitForLog(msg: string, exited: Promise<unknown>, timeoutMs: number): Promise<Record<string, any>> {
    const seen = this.logs.find((l) => l.msg === msg);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${msg}" log line within ${timeoutMs} ms; output:\n${this.text}`)), timeoutMs);
      this.waiters.push({ msg, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      void exited.then(() => reject(new Error(`the process exited before "${msg}"; output:\n${this.text}`)));
    });
  }
}

/** Polls `ready` until it answers 200; the process's URL. */
async function answering(ready: NonNullable<ServiceProcessOptions['ready']>, exited: Promise<unknown>, out: Output, timeoutMs: number): Promise<string> {
  const url = `http://127.0.0.1:${ready.port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (gone) throw new Error(`exited before answering: ${out.text.trim() || '(no output)'}`);
    if (performance.now() > deadline) throw new Error(`did not answer within ${timeoutMs / 1000} s: ${out.text.trim() || '(no output)'}`);
    try {
      const response = await fetch(url + ready.path, { headers: { authorization: `Bearer ${ready.token}` }, signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return url;
    } catch {}
    await new Promise((r) => setTimeout(r, 10));
  }
}
