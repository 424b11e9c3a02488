// The import run's figures (run.ts) as a section of bench/results/latest.md (sections.ts):
// `--imports` writes it, and a full run keeps the last one, since a full run measures reads
// only. The goals are goals.ts'.
import type { HostCpu } from '../hostCpu.js';
import { nodeFlagsOf } from '../nodeFlags.js';
import { int, latencyMs as ms, pct, table } from '../report/format.js';
import { focusedSection, ranAs } from '../sections.js';
import { round } from '../stats.js';
import { describeState } from './databaseState.js';
import { feedLines } from './feedReport.js';
import { copyRatio, importGoals, storedAloneRatio } from './goals.js';
import { LOADED_ALONE_TIMES } from './loadedRowsAlone.js';
import type { GeneratorThread, KindLatency } from './openLoop.js';
import { RAW_COPIES } from './rawCopy.js';
import type { ImportRunResult } from './results.js';
import type { SearchFigures, SlowAnswers } from './searches.js';
import { STORED_ALONE_TIMES } from './storedRowsAlone.js';

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
  const prewarmed = result.prewarmed ? 'prewarmed with pg_prewarm' : 'not prewarmed (pg_prewarm unavailable)';
  const copies = result.workingCopies
    ? `; each application of a change or churn file (with its inverse and floor where the feed is on), and then the searches and webhook deliveries, on a fresh copy of it (CREATE DATABASE … TEMPLATE), ${prewarmed}, so that each starts from the same pages`
    : `, ${prewarmed} before its change files`;
  const file = result.fileMb === undefined ? '' : `; the whole dataset as one NDJSON file: ${int(result.fileMb)} MB`;
  return [
    '## Import cost (PostgreSQL)',
    '',
    ranAs('imports', result, `${postgres}${result.server ? `, on ${result.server}` : ''}; ${result.machine.nproc} cores (${result.machine.cpuModel})`),
    `Each file applied by the import as production runs it (built: \`node ${nodeFlagsOf('import').join(' ')} dist/server/cli/import.js\`), in its own process, ${result.repetitions ?? 1} times, beside its floors measured in the same run: ` +
      "each file against its stored rows alone (its rows written where they live, without the import's reading, checks, staging or derived data, rolled back): " +
      `a whole-file load's, the whole file's companies, persons and employments copied into the same empty database just before it, their indexes built and keys added after (the fastest of ${LOADED_ALONE_TIMES}), which its re-apply shares; ` +
      `a change or churn file's, the same records' rows written to \`persons\` and \`employees\` with their indexes and keys (the fastest of ${STORED_ALONE_TIMES}); each from the stated state. ` +
      `Beside them, a raw COPY of the rows into unindexed, unlogged tables (the whole dataset's the fastest of two, a change file's of ${RAW_COPIES}), no goal's floor since decision 0026. ` +
      `WAL MB and checkpoints: what the server wrote to its WAL while the file applied, and the checkpoints it began meanwhile (max_wal_size below). ` +
      `Databases: ${databases}${copies}${file}.`,
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
    'WAL MB',
    'checkpoints',
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
        String(r.walMb ?? '–'),
        String(r.checkpoints ?? '–'),
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

/** Over what part of the change the closed loop's throughput was counted (searches.ts). */
function duringCounted({ whileImportWrote, seconds }: NonNullable<SearchFigures['saturatedDuringChange']>): string {
  if (whileImportWrote === undefined) return '';
  return whileImportWrote
    ? ` (counted over the ${seconds} s its import's transaction was open)`
    : ` (counted from the import's start: it ended before its transaction was seen open)`;
}

function searchTable(result: ImportRunResult): string[] {
  if (!result.searches?.idle.byKind) return [];
  const { idle, during, filters, saturated, saturatedDuringChange, rateShare, windows, statesBetween } = result.searches;
  const rows = Object.keys(idle.byKind).map((kind) => {
    const [i, d] = [idle.byKind[kind]!, during.byKind[kind]!];
    return [kind, int(i.answered), ms(i.p50), ms(i.p99), int(d.answered), ms(d.p50), ms(d.p99), `${round(d.p99 / i.p99, 2)}×`, failures(i, d)];
  });
  const rate = saturatedDuringChange
    ? `while a change file applied, ${round(saturatedDuringChange.rps, 1)} req/s${duringCounted(saturatedDuringChange)}; ` +
      `then the kinds in turn at a fixed ${round(idle.rate, 1)} req/s (${pct(rateShare)} of the lower of what it kept idle and during the change, an open loop: each latency counted from when its request was due)`
    : `then the kinds in turn at a fixed ${round(idle.rate, 1)} req/s (${pct(rateShare)} of that, an open loop: each latency counted from when its request was due)`;
  return [
    `Searches (${filters}): every kind at once at ${saturated.connections} connections answered ${round(saturated.rps, 1)} req/s idle over ${saturated.seconds} s; ${rate}, ` +
      `after a warm-up at that rate, idle for ${idle.seconds} s, then for the ${during.seconds} s the change file took${windows && windows > 1 ? `, applied ${windows} times (restored in between)` : ''}.` +
      (statesBetween?.length ? ` Each window after the first began from the stated state too (found: ${statesBetween.map(describeState).join('; ')}).` : ''),
    '',
    ...table(['Kind', 'idle answers', 'idle p50 ms', 'idle p99 ms', 'during answers', 'during p50 ms', 'during p99 ms', 'p99 during / idle', 'failed'], rows),
    ...slowAnswersLine(result.searches.slowAnswers),
  ];
}

/** How many failed, idle and during together, and what they were ("3: 503 service_unavailable ×2, timed out ×1"). */
function failures(...periods: KindLatency[]): string {
  const byReason = new Map<string, number>();
  for (const [reason, n] of periods.flatMap((p) => Object.entries(p.failedBy ?? {}))) byReason.set(reason, (byReason.get(reason) ?? 0) + n);
  const total = periods.reduce((n, p) => n + p.failed, 0);
  return byReason.size ? `${total}: ${[...byReason].map(([reason, n]) => `${reason} ×${n}`).join(', ')}` : String(total);
}

/** Where the slow answers arose: counted by the load generator only, or by the service too. */
function slowAnswersLine(slow: SearchFigures['slowAnswers']): string[] {
  if (!slow) return [];
  const late = (s: SlowAnswers) => (s.sentLate === undefined ? '' : ` (${int(s.sentLate)} sent that late by the load generator itself)`);
  const side = (s: SlowAnswers) =>
    `${int(s.client.slow)} of ${int(s.client.answers)} by the load generator${late(s)}, ${int(s.service.slow)} of ${int(s.service.answers)} by the service`;
  return [
    '',
    `Answers over ${int(slow.seconds * 1000)} ms, every kind: idle ${side(slow.idle)}; during the change ${side(slow.during)} ` +
      '(the service times a request from when it reads it; the load generator from when it was due, in a worker thread of its own).',
    ...servicePausesLine(slow),
    ...generatorLine(slow),
    ...hostLine(slow),
  ];
}

/** The machine's own account of each period: a stall outside every process shows here. */
function hostLine({ idle, during }: NonNullable<SearchFigures['slowAnswers']>): string[] {
  if (!idle.host || !during.host) return [];
  const shares = (h: HostCpu) =>
    `${pct(h.busy)} busy, ${pct(h.idle)} idle, ${pct(h.waitingForDisk)} waiting for the disk, ${pct(h.softInterrupts)} in soft interrupts, ${pct(h.stolen)} taken by the hypervisor`;
  return ['', `The machine's cores (/proc/stat): idle ${shares(idle.host)}; during the change ${shares(during.host)}.`];
}

/** What delayed the load generator's own thread: its waits are in every latency it counts. */
function generatorLine({ idle, during }: NonNullable<SearchFigures['slowAnswers']>): string[] {
  if (!idle.generator || !during.generator) return [];
  const waits = (g: GeneratorThread) => `${round(g.waitedForCoreSeconds, 2)} s waiting for a core, its event loop's longest delay ${ms(g.delayMaxMs)} ms`;
  const { nice } = during.generator;
  return [
    '',
    `The load generator's thread (priority ${nice}${nice < 0 ? ', above the service, the database and the import' : ', as every other process: the bench could not raise it'}): idle ${waits(idle.generator)}; during the change ${waits(during.generator)}.`,
  ];
}

/** What held the service's own event loop: a request waiting for it is slow outside its count. */
function servicePausesLine(slow: NonNullable<SearchFigures['slowAnswers']>): string[] {
  const { idle, during } = slow;
  if (idle.service.eventLoopMaxMs === undefined || during.service.eventLoopMaxMs === undefined) return [];
  const pauses = (s: SlowAnswers['service']) =>
    `${ms(s.eventLoopMaxMs!)} ms, ${int(s.slowCollections!)} collections over ${int(slow.seconds * 1000)} ms (${round(s.collectionSeconds!, 2)} s of collection in all)` +
    (s.majorFaults === undefined ? '' : `, ${int(s.majorFaults)} major page faults`) +
    (s.waitedForCoreSeconds === undefined ? '' : `, ${round(s.waitedForCoreSeconds, 2)} s waiting for its core`);
  return [
    '',
    `The service's event loop, its longest delay, its garbage collections, its process's major page faults (each a wait for the disk) and the time its thread was ready but waited for a core: idle ${pauses(idle.service)}; during the change ${pauses(during.service)} (the longest delay of any window).`,
  ];
}

export const importSection = focusedSection('imports', 'imports', renderImports);
