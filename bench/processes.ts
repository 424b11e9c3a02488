// Processes under test, pinned: spawned, timed from spawn to the first successful response (cold start), stopped.
import { freePort, startServiceProcess } from '../support/serviceProcess.js';
import { onCpu } from './machine.js';

export interface TargetSpec {
  name: string;
  argv: string[];
  env: Record<string, string>;
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
const SCRUBBED = /^(DATABASE_URL|REDIS_URL|PGLITE_DATA_DIR|LOG_LEVEL|APP_ENV|DEMO_DATA|PORT|HOST|NODE_OPTIONS|DRAFTS_ENABLED|AUDIT_\w+)$/;

export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !SCRUBBED.test(key)));
  return { ...env, ...extra };
}

export async function startTarget(spec: TargetSpec, cpu: number | undefined, timeoutMs = 120_000): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const target = await startServiceProcess({
    command: onCpu(spec.argv, cpu),
    baseEnv: childEnv({}),
    env: { ...spec.env, PORT: String(port) },
    ready: { port, ...spec.ready },
    startTimeoutMs: timeoutMs,
    keepOutput: false,
  }).catch((error: Error) => {
    throw new Error(`${spec.name} ${error.message}`);
  });
  const coldStartMs = performance.now() - started;
  let exited: string | undefined;
  void target.exited.then(({ code, signal }) => (exited = `exited (${signal ?? code})`));
  return {
    name: spec.name,
    pid: target.process.pid!,
    url: target.url,
    coldStartMs,
    exited: () => exited,
    stderr: () => target.output().trim() || '(no output)',
    stop: () => target.terminate().then(() => {}),
  };
}
