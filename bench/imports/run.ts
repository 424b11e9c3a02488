// `npm run bench -- --imports`: only the import measurements, each file applied by
// `npm run import` (its own process, its peak RSS sampled) beside a raw COPY of the same
// rows in the same run (bench/changes/phases.ts does both):
//   1. the whole dataset loaded into an empty database, then 2. re-applied unchanged;
//   3. a change file of a fixed number of people on the bench database and on a smaller
//      one (the same size of file): what its time grows with; each restored by its inverse;
//   4. the churn file on the bench database, restored by its inverse;
//   5. the change file again while searches run: their p99 against idle, restored after.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { type ChangeFiles, churn, peopleChange } from '../changes/files.js';
import {
  applyBoth,
  type ChangeResults,
  changeWhileSearching,
  type ImportRun,
  importPhase,
  type PhaseContext,
  recoverInterruptedRun,
  type SearchesDuringImport,
  undo,
  withRawCopy,
} from '../changes/phases.js';
import { type DatasetInfo, ensureDataset } from '../dataset/build.js';
import { createDataset, type Scale, scaleFor } from '../dataset/generate.js';
import { describeMachine, type Machine, pinSelf } from '../machine.js';
import type { BenchOptions } from '../options.js';
import { prewarm } from '../prewarm.js';
import { round } from '../stats.js';
import { searchFilters } from './searches.js';
import { type ImportTimings, importTimings, timingsRequested } from './timings.js';

/** What a row measures (its `label` says it in words). */
export type ImportMeasurement =
  | 'initial load'
  | 'unchanged re-apply'
  | 'change'
  | 'change inverse'
  | 'churn'
  | 'churn inverse'
  | 'change while searching'
  | 'change inverse after searching';

export interface ImportRow extends ImportRun {
  measurement: ImportMeasurement;
  /** People in the database the file was applied to (0: the initial load's empty database). */
  databasePeople: number;
  /** The import's step and statement timings, when the bench ran with IMPORT_TIMINGS=1. */
  timings?: ImportTimings;
}

export interface ImportRunResult {
  startedAt: string;
  finishedAt: string;
  revision: string;
  machine: Machine;
  postgresVersion?: string;
  /** The server settings an import's cost depends on most (its buffer cache, how much WAL between checkpoints). */
  postgresSettings?: Record<string, string>;
  /** Whether each database was prewarmed (pg_prewarm) before its change files. */
  prewarmed?: boolean;
  options: { people: number; smallPeople: number; changePeople: number; kinds: string[]; samples: number; importTimings: boolean };
  /** The bench database and the smaller one (their names, not their URLs). */
  databases: { name: string; people: number; companies: number }[];
  /** The whole dataset as one NDJSON file (the initial load). */
  fileMb?: number;
  /** What each change file does. */
  notes: string[];
  rows: ImportRow[];
  searches?: SearchesDuringImport;
  loadAverage: { start: number; end: number };
}

/** The smaller database beside the bench database: its name with the people count (lookup_bench_100000). */
export function sizedDatabaseUrl(databaseUrl: string, people: number): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${decodeURIComponent(url.pathname.slice(1))}_${people}`;
  return url.toString();
}

export async function runImportBench(options: BenchOptions, log: (line: string) => void): Promise<ImportRunResult> {
  if (!options.postgres || !options.imports) throw new Error('--imports needs PostgreSQL');
  const startedAt = new Date().toISOString();
  const machine = describeMachine();
  // As in the full run: the bench's process (the searches) on one core; the import is unpinned.
  if (machine.pinning) pinSelf(machine.pinning.loadCpu);
  const { databaseUrl, people, companies, seed } = options.postgres;
  const { smallPeople, changePeople } = options.imports;
  const smallUrl = sizedDatabaseUrl(databaseUrl, smallPeople);
  const scale = scaleFor(people, { companies, seed });
  const smallScale = scaleFor(smallPeople, { seed });
  const info = await ensureDataset({ engine: 'postgres', databaseUrl }, { scale, rebuild: options.rebuild, log });
  const smallInfo = await ensureDataset({ engine: 'postgres', databaseUrl: smallUrl }, { scale: smallScale, rebuild: options.rebuild, log });
  const loadAtStart = os.loadavg()[0]!;

  const main = context(databaseUrl, scale, options.workDir, log);
  // A directory of its own: an inverse left by an interrupted run goes back to its own database.
  const small = context(smallUrl, smallScale, join(options.workDir, databaseName(smallUrl)), log);
  const results: ChangeResults = { imports: [], notes: [] };
  const rows: ImportRow[] = [];
  const take = (measurement: ImportMeasurement, databasePeople: number, label?: string): ImportRow[] => {
    const taken = results.imports.splice(0).map((run) => row(label ? { ...run, label } : run, measurement, databasePeople));
    rows.push(...taken);
    return taken;
  };
  await recoverInterruptedRun(main, results);
  await recoverInterruptedRun(small, results);

  // 1, 2: the initial load into an empty database of its own, and the same file again.
  await importPhase(main, results);
  rows.push(row(results.imports.shift()!, 'initial load', 0), ...results.imports.splice(0).map((run) => row(run, 'unchanged re-apply', people)));

  const db = await openDatabase({ databaseUrl, poolMax: 4 });
  let postgresVersion: string | undefined;
  let postgresSettings: Record<string, string> | undefined;
  let prewarmed = false;
  try {
    postgresVersion = (await db.query<{ version: string }>('SELECT version()'))[0]?.version;
    postgresSettings = await serverSettings(db);
    // 3: the same size of change file on both databases, each restored by its inverse;
    // each database prewarmed first, as a server that has been running holds it (the
    // initial load has just written a second copy of the dataset through the caches).
    prewarmed = await prewarm(db);
    const files = await changeAlone(main, db, changePeople, results, take, people);
    const smallDb = await openDatabase({ databaseUrl: smallUrl, poolMax: 1 });
    try {
      prewarmed = (await prewarm(smallDb)) && prewarmed;
      await changeAlone(small, smallDb, changePeople, results, take, smallPeople);
    } finally {
      await smallDb.close();
    }

    // 4: the churn file, restored by its inverse.
    log('imports: the churn file (10% of employments changed, 1% relinked, 1% deleted)');
    const churnFiles = await churn(db);
    await applyBoth(main, churnFiles, 'churn', results);
    take('churn', people);
    await undoWithCopy(main, 'churn', churnFiles.inverse, results);
    take('churn inverse', people);

    // 5: the change file again, while searches run; restored after.
    main.searchFilters = await searchFilters(db, databaseUrl, info, options.kinds, options.samples);
    log(`imports: the change file while searches run (${main.searchFilters.length} filters, 4 at once)`);
    await changeWhileSearching(main, db, files, results);
    take('change while searching', people);
    await undoWithCopy(main, 'change', files.inverse, results);
    take('change inverse after searching', people, 'change inverse (restores the data, after the searches)');
  } finally {
    await db.close();
  }

  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    revision: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() || 'unknown',
    machine,
    postgresVersion,
    postgresSettings,
    prewarmed,
    options: { people, smallPeople, changePeople, kinds: options.kinds, samples: options.samples, importTimings: timingsRequested() },
    databases: [summary(databaseUrl, info), summary(smallUrl, smallInfo)],
    fileMb: results.fileMb,
    notes: results.notes,
    rows,
    searches: results.searches,
    loadAverage: { start: round(loadAtStart, 2), end: round(os.loadavg()[0]!, 2) },
  };
}

const reportedSettings = ['shared_buffers', 'max_wal_size', 'wal_compression'];

async function serverSettings(db: Database): Promise<Record<string, string>> {
  const rows = await db.query<{ name: string; setting: string }>(
    'SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1::text[]) ORDER BY name',
    [reportedSettings],
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
}

function context(databaseUrl: string, scale: Scale, workDir: string, log: (line: string) => void): PhaseContext {
  return { databaseUrl, dataset: createDataset(scale), workDir, searchFilters: [], log };
}

/** The change file of `changePeople` people applied alone beside its raw COPY, then its inverse (also beside its COPY). */
async function changeAlone(
  ctx: PhaseContext,
  db: Database,
  changePeople: number,
  results: ChangeResults,
  take: (measurement: ImportMeasurement, databasePeople: number) => ImportRow[],
  databasePeople: number,
): Promise<ChangeFiles> {
  ctx.log(`imports: a change file of ${changePeople.toLocaleString('en-US')} people on the database of ${databasePeople.toLocaleString('en-US')}`);
  const files = await peopleChange(db, { people: changePeople });
  await applyBoth(ctx, files, 'change', results, undefined, `change file (${changePeople.toLocaleString('en-US')} people)`);
  take('change', databasePeople);
  await undoWithCopy(ctx, 'change', files.inverse, results);
  take('change inverse', databasePeople);
  return files;
}

/** The inverse applied once (phases.ts undo), and its rows copied raw beside it. */
async function undoWithCopy(ctx: PhaseContext, label: string, inverse: ImportRecord[], results: ChangeResults): Promise<void> {
  const [run] = await undo(ctx, label, results, true);
  await withRawCopy(run!, ctx.databaseUrl, inverse);
}

function row(run: ImportRun, measurement: ImportMeasurement, databasePeople: number): ImportRow {
  const timings = timingsRequested() ? importTimings(run.summary) : undefined;
  return { ...run, measurement, databasePeople, ...(timings ? { timings } : {}) };
}

const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

function summary(url: string, info: DatasetInfo): ImportRunResult['databases'][number] {
  return { name: databaseName(url), people: info.scale.people, companies: info.scale.companies };
}
