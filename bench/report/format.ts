// How the report writes figures, names and tables.
import type { Engine } from '../plan.js';
import type { RunResult } from '../run.js';
import { round } from '../stats.js';

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

export const engineName: Record<Engine, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };

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
