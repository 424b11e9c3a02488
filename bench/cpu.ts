// CPU time (user + system) and resident memory of a process, from /proc (Linux; elsewhere
// nothing rather than a wrong figure). CPU time per request is steadier than req/s on a
// shared host, where the process under test waits for a core as often as the load lets it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** The fields of /proc/<pid>/stat after the command name, which may hold spaces: field 3 (state) first. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Microseconds of CPU `pid` has used so far, or undefined where /proc cannot be read. */
export function cpuMicros(pid: number): number | undefined {
  try {
    const fields = statFields(pid);
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * Major page faults of `pid` so far (pages it had to wait for the disk to read back: its
 * code or heap evicted under the page cache's pressure), or undefined where /proc cannot be read.
 */
export function majorFaults(pid: number): number | undefined {
  try {
    return Number(statFields(pid)[9]);
  } catch {
    return undefined;
  }
}

/**
 * Seconds the main thread of `pid` (or, given 'thread-self', the calling thread) has spent so
 * far ready to run but waiting for a core (/proc/<pid>/schedstat), or undefined where it
 * cannot be read.
 */
export function runQueueWaitSeconds(pid: number | 'thread-self'): number | undefined {
  try {
    const [, waitedNs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ');
    return waitedNs === undefined ? undefined : Number(waitedNs) / 1e9;
  } catch {
    return undefined;
  }
}

/** CPU time so far of each backend of the bench database (on this host): read around a measurement, the database's work for it, the rest idle. */
export async function databaseBackendsCpu(db: { query<Row>(sql: string): Promise<Row[]> }): Promise<Map<number, number>> {
  const backends = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  const cpu = new Map<number, number>();
  for (const { pid } of backends) {
    const micros = cpuMicros(pid);
    if (micros !== undefined) cpu.set(pid, micros);
  }
  return cpu;
}

/** CPU time per request of `pid`, and of the database's backends (databaseBackendsCpu), over what runs until `stop(answered)`. */
export async function cpuMeter(pid: number, databaseCpu?: () => Promise<Map<number, number>>) {
  const databaseBefore = await databaseCpu?.();
  const before = cpuMicros(pid);
  return {
    async stop(answered: number): Promise<{ cpuUsPerRequest?: number; dbCpuUsPerRequest?: number }> {
      const after = cpuMicros(pid);
      const databaseAfter = await databaseCpu?.();
      if (answered <= 0) return {};
      // A backend that started in between counts whole.
      let database = 0;
      for (const [backend, micros] of databaseAfter ?? []) database += micros - (databaseBefore?.get(backend) ?? 0);
      return {
        cpuUsPerRequest: before !== undefined && after !== undefined ? (after - before) / answered : undefined,
        dbCpuUsPerRequest: databaseBefore && databaseAfter?.size ? database / answered : undefined,
      };
    },
  };
}

/** Samples `pid`'s resident set every `intervalMs` until `stop()`, which gives its peak in MB (undefined where /proc cannot be read). */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number | undefined } {
  let peakKb: number | undefined;
  const sample = () => {
    try {
      const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      if (kb) peakKb = Math.max(peakKb ?? 0, kb);
    } catch {
      // ended, or not Linux
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peakKb === undefined ? undefined : Math.round(peakKb / 102.4) / 10;
    },
  };
}
