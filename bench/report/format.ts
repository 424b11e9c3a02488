// How the report writes figures, names and tables; and the figures the targets and the
// sections both read off the summary rows: the audit's cost, CPU per request by process,
// hello's instruction counts.
import type { RunResult } from '../run.js';
import { median, round } from '../stats.js';
import { auditOffName } from '../targets.js';
import type { Row } from './summary.js';

export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
export const ms = (n: number) => {
  if (!Number.isFinite(n)) return '–';
  return n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US');
};
export const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : '–');
/** The focused runs' sections (`--imports`, `--replica`, `--tracing`): a figure to `digits` decimals (trailing zeros dropped), and a latency. */
export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? round(n, digits).toLocaleString('en-US') : '–');
export const latencyMs = (n: number) => (n >= 10 ? fmt(n, 1) : fmt(n, 2));
export const mark = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? '**met**' : '**not met**');
/** A figure, or a dash where there is none. */
export const orDash = (n: number | undefined, format: (n: number) => string = String) => (n === undefined ? '–' : format(n));

export { engineName } from '../plan.js';

/** "one large company", "100 companies" (as many as that dataset has), "every company", by a scenario's group and credential key. */
export type CredentialName = (group: string, key: string | undefined) => string;

export function credentialNames(raw: RunResult): CredentialName {
  return (group, key) => {
    const dataset = raw.datasets.find((d) => d.engine === group) ?? raw.datasets[0];
    return dataset?.credentials.find((c) => c.key === key)?.name.replace(/^bench: /, '') ?? key ?? '';
  };
}

/** A Markdown table: its first `textColumns` columns left-aligned, the rest (figures) right-aligned. */
export function table(header: string[], rows: string[][], textColumns = 1): string[] {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const align = `|${header.map((_, i) => (i < textColumns ? '---' : '---:')).join('|')}|`;
  return [line(header), align, ...rows.map(line)];
}

/** A table's column: its header, and how a row reads in it. */
export type Column<T> = [string, (row: T) => string];
export const columns = <T>(spec: Column<T>[], rows: T[], textColumns = 1) =>
  table(
    spec.map(([header]) => header),
    rows.map((row) => spec.map(([, cell]) => cell(row))),
    textColumns,
  );
/** `part` as a share of `whole`, or a dash where either is missing. */
export const share = (part: number | undefined, whole: number | undefined) => (part === undefined || whole === undefined ? '–' : pct(part / whole));

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
