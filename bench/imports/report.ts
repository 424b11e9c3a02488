// The import run's figures (run.ts) as a section of bench/results/latest.md (sections.ts):
// `--imports` writes it, and a full run keeps the last one, since a full run measures reads
// only. The goals are goals.ts'.
import { int, latencyMs as ms, pct, table } from '../report/format.js';
import { focusedSection, ranAs } from '../sections.js';
import { round } from '../stats.js';
import { describeState } from './databaseState.js';
import { feedLines } from './feedReport.js';
import { copyRatio, importGoals, storedAloneRatio } from './goals.js';
import { RAW_COPIES } from './rawCopy.js';
import type { ImportRunResult } from './results.js';

export { importGoals } from './goals.js';

function renderImports(result: ImportRunResult): string[] {
  const goals = importGoals(result).map((g) => `- ${g.goal} — **${g.met === undefined ? 'not measured' : g.met ? 'met' : 'not met'}** (${g.measured})`);
  return [
    ...importHeader(result),
    '**Goals:**',
    '',
    ...goals,
    '',
    ...result.notes.map((n) => `- ${n}`),
    '',
    ...importTable(result),
    '',
    ...stateLines(result),
    ...feedLines(result),
    ...searchTable(result),
  ];
}

function importHeader(result: ImportRunResult): string[] {
  const settings = Object.entries(result.postgresSettings ?? {}).map(([name, value]) => `${name} ${value}`);
  const postgres = `${result.postgresVersion?.split(' on ')[0] ?? 'PostgreSQL'}${settings.length ? ` (${settings.join(', ')})` : ''}`;
  const databases = result.databases.map((d) => `\`${d.name}\` (${int(d.people)} people, ${int(d.companies)} companies)`).join(', ');
  const prewarmed = result.prewarmed ? ', prewarmed with pg_prewarm before its change files' : ', not prewarmed (pg_prewarm unavailable)';
  const file = result.fileMb === undefined ? '' : `; the whole dataset as one NDJSON file: ${int(result.fileMb)} MB`;
  return [
    '## Import cost (PostgreSQL)',
    '',
    ranAs('imports', result, `${postgres}; ${result.machine.nproc} cores (${result.machine.cpuModel})`),
    `Each file applied by \`npm run import\` in its own process, ${result.repetitions ?? 1} times, beside its floors measured in the same run: ` +
      `the loads against a raw COPY of the whole dataset's rows into unindexed tables (the fastest of two; a change file's COPY, the fastest of ${RAW_COPIES}, is shown too), ` +
      "the change and churn files against their stored rows alone (the same records' rows written to `persons` and `employees` with their indexes and keys, " +
      'without staging, checks or derived data, rolled back). ' +
      `Databases: ${databases}${prewarmed}${file}.`,
    '',
  ];
}

function importTable(result: ImportRunResult): string[] {
  const header = [
    'File',
    'turn',
    'database people',
    'records',
    'seconds',
    'records/s',
    'raw COPY s',
    'import / COPY',
    'stored rows alone s',
    'import / stored alone',
    'peak RSS MB',
  ];
  return table(
    header,
    result.rows.map((r) => {
      const database = r.databasePeople ? int(r.databasePeople) : 'empty';
      const alone = r.storedAloneSeconds === undefined ? '–' : String(r.storedAloneSeconds);
      const aloneRatio = r.storedAloneSeconds === undefined ? '–' : `${round(storedAloneRatio(r), 1)}×`;
      return [
        r.label,
        String(r.repetition ?? 1),
        database,
        int(r.records),
        String(r.seconds),
        int(r.recordsPerSecond),
        String(r.copySeconds ?? '–'),
        pct(copyRatio(r)),
        alone,
        aloneRatio,
        String(r.peakRssMb ?? '–'),
      ];
    }),
    2,
  );
}

/** The state each measured file began from (databaseState.ts). */
function stateLines(result: ImportRunResult): string[] {
  const states = result.rows
    .filter((r) => r.state)
    .map((r) => `${r.label} ${r.repetition ?? 1}: ${describeState(r.state)} (prepared in ${r.state!.seconds} s)`);
  if (!states.length) return [];
  return [
    "**State before each file.** The run's tables have autovacuum off (per table, set back at the end); before each load, change and churn file, " +
      'and before each stored-rows-alone floor, the database is vacuumed and analysed (`VACUUM (ANALYZE)`), no autovacuum worker is left on it, ' +
      'and a `CHECKPOINT` is taken. Each inverse runs right after its change, from the state that change left. Found before each file: ' +
      `${states.join('; ')}.`,
    '',
  ];
}

function searchTable(result: ImportRunResult): string[] {
  if (!result.searches?.idle.byKind) return [];
  const { idle, during, filters, saturated, saturatedDuringChange, rateShare, windows } = result.searches;
  const rows = Object.keys(idle.byKind).map((kind) => {
    const [i, d] = [idle.byKind[kind]!, during.byKind[kind]!];
    return [kind, int(i.answered), ms(i.p50), ms(i.p99), int(d.answered), ms(d.p50), ms(d.p99), `${round(d.p99 / i.p99, 2)}×`, String(i.failed + d.failed)];
  });
  const rate = saturatedDuringChange
    ? `while a change file applied, ${round(saturatedDuringChange.rps, 1)} req/s; ` +
      `then the kinds in turn at a fixed ${round(idle.rate, 1)} req/s (${pct(rateShare)} of what it kept during the change, an open loop: each latency counted from when its request was due)`
    : `then the kinds in turn at a fixed ${round(idle.rate, 1)} req/s (${pct(rateShare)} of that, an open loop: each latency counted from when its request was due)`;
  return [
    `Searches (${filters}): every kind at once at ${saturated.connections} connections answered ${round(saturated.rps, 1)} req/s idle over ${saturated.seconds} s; ${rate}, ` +
      `after a warm-up at that rate, idle for ${idle.seconds} s, then for the ${during.seconds} s the change file took${windows && windows > 1 ? `, applied ${windows} times (restored in between)` : ''}.`,
    '',
    ...table(['Kind', 'idle answers', 'idle p50 ms', 'idle p99 ms', 'during answers', 'during p50 ms', 'during p99 ms', 'p99 during / idle', 'failed'], rows),
  ];
}

export const importSection = focusedSection('imports', 'imports', renderImports);
