// Processes under test: spawned, timed from spawn to the first successful response
// (cold start), sampled for memory, and stopped. Every target runs as its own process,
// the service exactly as production runs it (targets.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { onCpu } from './machine.js';

/** Every child the bench started, killed if the bench itself exits early (budget, Ctrl-C, crash). */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

export interface TargetSpec {
  name: string;
  argv: string[];
  env: Record<string, string>;
  /** Passes the port as this command-line flag (Prism) rather than as PORT. */
  portFlag?: string;
  /** A request that answers 200 once the target is ready (an authenticated hello). */
  ready: { path: string; token: string };
}

export interface Running {
  name: string;
  pid: number;
  url: string;
  coldStartMs: number;
  /** Why the process ended, if it has (it should not before stop()). */
  exited(): string | undefined;
  /** The last few KB it wrote to stderr. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Variables a spawned target must not inherit from the bench's own environment. */
const SCRUBBED = [
  'DATABASE_URL',
  'REDIS_URL',
  'PGLITE_DATA_DIR',
  'LOG_LEVEL',
  'APP_ENV',
  'DEMO_DATA',
  'PORT',
  'HOST',
  'NODE_OPTIONS',
  'DRAFTS_ENABLED',
  'AUDIT_ENABLED',
  'AUDIT_RETENTION_DAYS',
  'AUDIT_DURABILITY',
  'AUDIT_SPOOL_DIR',
];

export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of SCRUBBED) delete env[key];
  return { ...env, ...extra };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startTarget(spec: TargetSpec, cpu: number | undefined, timeoutMs = 120_000): Promise<Running> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const [command, ...args] = onCpu(spec.portFlag ? [...spec.argv, spec.portFlag, String(port)] : spec.argv, cpu);
  const started = performance.now();
  const child = track(spawn(command!, args, { env: childEnv({ ...spec.env, PORT: String(port) }), stdio: ['ignore', 'ignore', 'pipe'] }));
  const stderr = tail(child);
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited (${signal ?? code})`));

  const deadline = started + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`${spec.name} ${exited} before answering: ${stderr()}`);
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${spec.name} did not answer within ${timeoutMs / 1000} s: ${stderr()}`);
    }
    if (await answers(url + spec.ready.path, spec.ready.token)) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const coldStartMs = performance.now() - started;
  return { name: spec.name, pid: child.pid!, url, coldStartMs, exited: () => exited, stderr, stop: () => stopChild(child) };
}

async function answers(url: string, token: string): Promise<boolean> {
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The last few KB a child wrote to stderr, for error messages. */
function tail(child: ChildProcess): () => string {
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => (text = (text + chunk.toString('utf8')).slice(-4_000)));
  return () => text.trim() || '(no output)';
}
