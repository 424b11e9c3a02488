// The import run's figures (run.ts) as a section of bench/results/latest.md (sections.ts):
// `--imports` writes it, and a full run keeps the last one, since a full run measures reads
// only.
import { int, latencyMs as ms, pct, table } from '../report/format.js';
import type { TargetCheck } from '../report/summary.js';
import { focusedSection, ranAs } from '../sections.js';
import { round } from '../stats.js';
import { RAW_COPIES } from './rawCopy.js';
import type { ImportMeasurement, ImportRow, ImportRunResult } from './run.js';

/** Each kind of file's floor, as a share of a raw COPY of the same rows; and the searches' p99 bound. */
export const IMPORT_GOALS = { change: 0.2, initial: 0.35, unchanged: 0.8, searchP99Factor: 2 } as const;

/** Import records/s over raw COPY records/s of the same rows. */
export const copyRatio = (r: ImportRow) => (r.copyRecordsPerSecond ? r.recordsPerSecond / r.copyRecordsPerSecond : Number.NaN);

const rowsOf = (result: ImportRunResult, ...measurements: ImportMeasurement[]) => result.rows.filter((r) => measurements.includes(r.measurement));

/** Every goal of the imports: rates as a share of the raw COPY, absolute rates and times, memory, and the searches beside. */
export function importGoals(result: ImportRunResult): TargetCheck[] {
  const goals: TargetCheck[] = [];
  const add = (goal: string, measured: string, met: boolean) => goals.push({ goal, measured, met });
  const floor = (goal: string, rows: ImportRow[], share: number) => {
    if (!rows.length) return;
    const lowest = rows.reduce((low, r) => (copyRatio(r) < copyRatio(low) ? r : low));
    const each = rows.map((r) => `${r.label}${r.databasePeople ? ` on ${int(r.databasePeople)} people` : ''} ${pct(copyRatio(r))}`);
    add(`${goal}: at least ${pct(share)} of the raw COPY rate`, each.join('; '), copyRatio(lowest) >= share);
  };
  floor('change and churn files', rowsOf(result, 'change', 'churn'), IMPORT_GOALS.change);
  floor('initial load', rowsOf(result, 'initial load'), IMPORT_GOALS.initial);
  floor('unchanged re-apply', rowsOf(result, 'unchanged re-apply'), IMPORT_GOALS.unchanged);
  const [initial] = rowsOf(result, 'initial load');
  if (initial) {
    add('initial load: at least 25,000 records/s', `${int(initial.recordsPerSecond)} records/s (${initial.seconds} s)`, initial.recordsPerSecond >= 25_000);
    const rss = initial.peakRssMb;
    const file = `${rss ?? '–'} MB (${int(result.fileMb ?? Number.NaN)} MB file)`;
    add('import streams: peak RSS at most 256 MB (the whole dataset as one NDJSON file)', file, rss !== undefined && rss <= 256);
  }
  const [unchanged] = rowsOf(result, 'unchanged re-apply');
  if (unchanged) {
    const measured = `${int(unchanged.recordsPerSecond)} records/s (${int(unchanged.records)} records in ${unchanged.seconds} s)`;
    add('unchanged re-apply: at least 100,000 records/s', measured, unchanged.recordsPerSecond >= 100_000);
  }
  // (On the bench database: runs before 2026-11-28 also applied it to a smaller one.)
  const change = rowsOf(result, 'change').find((r) => r.databasePeople === result.options.people);
  const [searching] = rowsOf(result, 'change while searching');
  if (change) {
    const measured = `${change.seconds} s alone (${int(change.records)} records)${searching ? `; ${searching.seconds} s with searches running` : ''}`;
    add('change file touching 1% of the people: applied in under 10 s', measured, change.seconds < 10);
  }
  if (result.searches) {
    const { idle, during } = result.searches;
    const measured = `${ms(during.p99)} ms against ${ms(idle.p99)} ms idle (${round(during.p99 / idle.p99, 2)}×)`;
    add(
      `searches while a change file is applied: p99 at most ${IMPORT_GOALS.searchP99Factor}× idle`,
      measured,
      during.p99 <= IMPORT_GOALS.searchP99Factor * idle.p99,
    );
  }
  return goals;
}

function renderImports(result: ImportRunResult): string[] {
  const goals = importGoals(result).map((g) => `${g.goal} — **${g.met ? 'met' : 'not met'}** (${g.measured})`);
  const lines = [...importHeader(result), `**Goals:** ${goals.join('; ')}.`, '', ...result.notes.map((n) => `- ${n}`), '', ...importTable(result), ''];
  if (!result.searches) return lines;
  const { idle, during, filters } = result.searches;
  const searches =
    `Searches (${filters}; kinds ${result.options.kinds.join(', ')}) on the bench database: ` +
    `idle ${int(idle.requests)} in ${idle.seconds} s, p50 ${ms(idle.p50)} ms, p99 ${ms(idle.p99)} ms; ` +
    `while the change file was applied ${int(during.requests)} in ${during.seconds} s, p50 ${ms(during.p50)} ms, p99 ${ms(during.p99)} ms.`;
  return [...lines, searches];
}

function importHeader(result: ImportRunResult): string[] {
  const settings = Object.entries(result.postgresSettings ?? {}).map(([name, value]) => `${name} ${value}`);
  const postgres = `${result.postgresVersion?.split(' on ')[0] ?? 'PostgreSQL'}${settings.length ? ` (${settings.join(', ')})` : ''}`;
  const databases = result.databases.map((d) => `\`${d.name}\` (${int(d.people)} people, ${int(d.companies)} companies)`).join(', ');
  const prewarmed = result.prewarmed ? ', each prewarmed with pg_prewarm before its change files' : ', not prewarmed (pg_prewarm unavailable)';
  const file = result.fileMb === undefined ? '' : `; the whole dataset as one NDJSON file: ${int(result.fileMb)} MB`;
  return [
    '## Import cost (PostgreSQL)',
    '',
    ranAs('imports', result, `${postgres}; ${result.machine.nproc} cores (${result.machine.cpuModel})`),
    'Each file applied by `npm run import` in its own process, beside a raw COPY of the same rows in the same run ' +
      `(the fastest of ${RAW_COPIES}); the unchanged re-apply is set against the initial load's COPY. ` +
      `Databases: ${databases}${prewarmed}${file}.`,
    '',
  ];
}

function importTable(result: ImportRunResult): string[] {
  const header = ['File', 'database people', 'records', 'seconds', 'records/s', 'raw COPY records/s', 'import / COPY', 'peak RSS MB'];
  return table(
    header,
    result.rows.map((r) => {
      const copyRate = r.copyRecordsPerSecond ? int(r.copyRecordsPerSecond) : '–';
      const database = r.databasePeople ? int(r.databasePeople) : 'empty';
      return [r.label, database, int(r.records), String(r.seconds), int(r.recordsPerSecond), copyRate, pct(copyRatio(r)), String(r.peakRssMb ?? '–')];
    }),
  );
}

export const importSection = focusedSection('imports', 'imports', renderImports);
