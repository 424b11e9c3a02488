// Drives the direct-SQL reference (references/directSql.ts) in its own pinned process.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PersonFilter } from '../server/domain/persons.js';
import { cpuMeter } from './cpu.js';
import type { Measured } from './loadHttp.js';
import { onCpu } from './machine.js';
import { childEnv, stopChild, track } from './processes.js';
import type { DirectResult, DirectRun } from './references/directSql.js';
import type { EmployeeAsk } from './scenarios.js';

const runnerPath = fileURLToPath(new URL('./references/directSql.ts', import.meta.url));

export interface DirectRunner {
  pid: number;
  /** `databaseCpu`: as HttpLoad's (loadHttp.ts), for the database's CPU time per request. */
  measure(filters: (PersonFilter | EmployeeAsk)[], concurrency: number, durationS: number, databaseCpu?: () => Promise<Map<number, number>>): Promise<Measured>;
  stop(): Promise<void>;
}

/** `serviceEnv`: the environment the service runs with, so that both open the database alike. */
export async function startDirectRunner(serviceEnv: Record<string, string>, cpu: number | undefined): Promise<DirectRunner> {
  const [command, ...args] = onCpu([process.execPath, '--import', 'tsx', runnerPath], cpu);
  const child: ChildProcess = track(
    spawn(command!, args, {
      env: childEnv(serviceEnv),
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
  );
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`direct-SQL runner exited (${code}) before it was ready`)));
  });
  return {
    pid: child.pid!,
    async measure(filters, concurrency, durationS, databaseCpu) {
      const run: DirectRun = { type: 'run', filters, concurrency, durationMs: durationS * 1000 };
      const cpu = await cpuMeter(child.pid!, databaseCpu);
      const result = await new Promise<DirectResult>((resolve, reject) => {
        child.once('message', (m) => resolve(m as DirectResult));
        child.once('exit', (code) => reject(new Error(`direct-SQL runner exited (${code}) during a run`)));
        child.send(run);
      });
      child.removeAllListeners('exit');
      const { requests, seconds, p50, p99, errors, rssPeakMb, firstError } = result;
      // The runner is its own load: its CPU holds the callers' loop as well as the query's driver.
      return { requests, seconds, rps: requests / seconds, p50, p99, non2xx: 0, errors, rssPeakMb, firstError, ...(await cpu.stop(requests)) };
    },
    async stop() {
      child.send({ type: 'stop' });
      await stopChild(child);
    },
  };
}
