// CPU time a process has used (user + system), from /proc (Linux; elsewhere nothing rather
// than a wrong figure). Over a measurement, divided by the requests answered, it gives CPU
// time per request: steadier than requests per second on a shared host, where the
// process under test waits for a core as often as the load lets it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** Microseconds of CPU `pid` has used so far, or undefined where /proc cannot be read. */
export function cpuMicros(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are 14th and 15th of the line.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}
