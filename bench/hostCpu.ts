// The machine's cores over a period, from the first line of /proc/stat (Linux; elsewhere
// nothing rather than a wrong figure): how much of their time was idle, waited for the disk,
// served soft interrupts (the network and block devices' completions) or was taken by the
// hypervisor. A stall seen in a measurement is then set beside the host's own account of it.
import { readFileSync } from 'node:fs';

/** Shares of the cores' time, 0 to 1; `busy` is everything but idle and waiting for the disk. */
export interface HostCpu {
  busy: number;
  idle: number;
  waitingForDisk: number;
  softInterrupts: number;
  stolen: number;
}

/** The cores' time so far by state, in ticks: user, nice, system, idle, iowait, irq, softirq, steal. */
export type HostTicks = number[];

export function parseHostTicks(procStat: string): HostTicks | undefined {
  const first = procStat.split('\n')[0]!.trim().split(/\s+/);
  if (first[0] !== 'cpu') return undefined;
  const ticks = first.slice(1, 9).map(Number);
  return ticks.length === 8 && ticks.every(Number.isFinite) ? ticks : undefined;
}

export function hostTicks(): HostTicks | undefined {
  try {
    return parseHostTicks(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/** The ticks from `before` to `after`, undefined where either is. */
export const ticksBetween = (before: HostTicks | undefined, after: HostTicks | undefined): HostTicks | undefined =>
  before && after ? after.map((t, i) => t - before[i]!) : undefined;

/** The shares of some periods' ticks together, undefined where any period's is unknown. */
export function hostCpuOf(periods: readonly (HostTicks | undefined)[]): HostCpu | undefined {
  if (!periods.length || periods.some((p) => p === undefined)) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = (periods as HostTicks[]).reduce((sum, p) => sum.map((t, i) => t + p[i]!));
  const total = user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal!;
  if (total <= 0) return undefined;
  const share = (ticks: number) => Math.round((ticks / total) * 1000) / 1000;
  return {
    busy: share(user! + nice! + system! + irq! + softirq! + steal!),
    idle: share(idle!),
    waitingForDisk: share(iowait!),
    softInterrupts: share(softirq!),
    stolen: share(steal!),
  };
}
