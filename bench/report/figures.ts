// Figures the targets and the sections both read off the summary rows: the audit's cost,
// CPU per request by process, hello's instruction counts.

import type { RunResult } from '../run.js';
import { median } from '../stats.js';
import { auditOffName } from '../targets.js';
import type { Row } from './summary.js';

export const DIRECT = 'direct SQL';

/** The service with its access audit on (as configured by default) and off, per scenario measured so. */
export function auditCost(rows: Row[], serviceName: string): { on: Row; off: Row; ratio: number }[] {
  return rows
    .filter((r) => r.target === auditOffName(serviceName))
    .flatMap((off) => {
      const on = rows.find((r) => r.scenario === off.scenario && r.target === serviceName);
      return on ? [{ on, off, ratio: on.rps / off.rps }] : [];
    });
}

/** CPU µs per request of the service and its database backends together, where both were measured. */
export const serviceAndDatabaseCpu = (r: Row | undefined) =>
  r?.cpuUsPerRequest !== undefined && r.dbCpuUsPerRequest !== undefined ? r.cpuUsPerRequest + r.dbCpuUsPerRequest : undefined;

/** CPU per request (service and database) with the audit off over on, where both were measured. */
export function cpuRatio({ on, off }: { on: Row; off: Row }): number | undefined {
  const [a, b] = [serviceAndDatabaseCpu(on), serviceAndDatabaseCpu(off)];
  return a && b ? b / a : undefined;
}

/** CPU µs per request of each process a request passes through: the one under test, its database backends and the load generator. */
export function cpuParts(r: Row | undefined): { parts: number[]; total: number } | undefined {
  if (r?.cpuUsPerRequest === undefined || r.dbCpuUsPerRequest === undefined) return undefined;
  const parts = [r.cpuUsPerRequest, r.dbCpuUsPerRequest, ...(r.loadCpuUsPerRequest === undefined ? [] : [r.loadCpuUsPerRequest])];
  return { parts, total: parts.reduce((a, b) => a + b, 0) };
}

/** Median instructions per hello of the service and of the bare reference, when the run counted them. */
export function helloInstructionMedians(raw: RunResult): { service: number; bare: number } | undefined {
  const counts = Object.entries(raw.helloInstructions ?? {});
  const of = (prefix: string) => {
    const counted = counts.find(([name]) => name.startsWith(prefix));
    return counted && median(counted[1].perRequest);
  };
  const service = of('service');
  const bare = of('bare');
  return service && bare ? { service, bare } : undefined;
}
