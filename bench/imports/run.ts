// `npm run bench -- --imports`: every import measurement of the bench, each file applied by
// `npm run import` (importCli.ts) beside a raw COPY of the same rows in the same run
// (rawCopy.ts), on the PostgreSQL bench database:
//   1. the whole dataset loaded into an empty database, then 2. re-applied unchanged;
//   3. a change file touching 1% of the people, restored by its inverse;
//   4. the churn file (10% of employments changed, 1% relinked, 1% deleted), restored;
//   5. the change file again while searches run: their p99 against idle; restored after.
// Each inverse is written before its change is applied: a run stopped half-way leaves it
// behind, and the next run applies it first, so the bench database is the dataset again.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { ensureDataset } from '../dataset/build.js';
import { createDataset, scaleFor } from '../dataset/generate.js';
import { describeMachine, gitCommit, type Machine, pinSelf } from '../machine.js';
import type { BenchOptions } from '../options.js';
import { prewarm } from '../prewarm.js';
import { round } from '../stats.js';
import { type ChangeFiles, churn, peopleChange, writeNdjson } from './files.js';
import { type ImportRun, runImportCli } from './importCli.js';
import { initialLoad } from './initialLoad.js';
import { withRawCopy } from './rawCopy.js';
import { type SearchesDuringImport, searchFilters, whileSearching } from './searches.js';

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
}

export interface ImportRunResult {
  startedAt: string;
  finishedAt: string;
  revision: string;
  machine: Machine;
  postgresVersion?: string;
  /** The server settings an import's cost depends on most (its buffer cache, how much WAL between checkpoints). */
  postgresSettings?: Record<string, string>;
  /** Whether the bench database was prewarmed (pg_prewarm) before its change files. */
  prewarmed?: boolean;
  options: { people: number; kinds: string[]; samples: number };
  /** The bench database (its name, not its URL). */
  databases: { name: string; people: number; companies: number }[];
  /** The whole dataset as one NDJSON file (the initial load). */
  fileMb?: number;
  /** What each change file does. */
  notes: string[];
  rows: ImportRow[];
  searches?: SearchesDuringImport;
  loadAverage: { start: number; end: number };
}

/** The share of the people the change file touches. */
const CHANGE_SHARE = 0.01;

interface Context {
  databaseUrl: string;
  people: number;
  workDir: string;
  rows: ImportRow[];
  notes: string[];
  log: (line: string) => void;
}

export async function runImportBench(options: BenchOptions, log: (line: string) => void): Promise<ImportRunResult> {
  if (!options.postgres) throw new Error('--imports needs PostgreSQL');
  const startedAt = new Date().toISOString();
  const machine = describeMachine();
  // As in the full run: the bench's process (the searches) on one core; the import is unpinned.
  if (machine.pinning) pinSelf(machine.pinning.loadCpu);
  const { databaseUrl, people, companies, seed } = options.postgres;
  const scale = scaleFor(people, { companies, seed });
  const info = await ensureDataset({ engine: 'postgres', databaseUrl }, { scale, rebuild: options.rebuild, log });
  const loadAtStart = os.loadavg()[0]!;
  const ctx: Context = { databaseUrl, people, workDir: options.workDir, rows: [], notes: [], log };
  await recoverInterruptedRun(ctx);

  // 1, 2: the initial load into an empty database of its own, and the same file again.
  const { initial, unchanged, fileMb } = await initialLoad(databaseUrl, createDataset(scale), options.workDir, log);
  ctx.rows.push(row(initial, 'initial load', 0), row(unchanged, 'unchanged re-apply', people));

  const db = await openDatabase({ databaseUrl, poolMax: 4 });
  try {
    const postgresVersion = (await db.query<{ version: string }>('SELECT version()'))[0]?.version;
    const postgresSettings = await serverSettings(db);
    // Prewarmed, as a server that has been running holds its data (the initial load has
    // just written a second copy of the dataset through the caches).
    const prewarmed = await prewarm(db);

    // 3: the change file alone, restored by its inverse.
    log(`imports: a change file touching ${CHANGE_SHARE * 100}% of the people`);
    const change = await peopleChange(db, CHANGE_SHARE);
    await applyChange(ctx, 'change', change, 'change file', 'change');
    await restore(ctx, 'change', change, 'change inverse (restores the data)', 'change inverse');

    // 4: the churn file, restored by its inverse.
    log('imports: the churn file (10% of employments changed, 1% relinked, 1% deleted)');
    const churnFiles = await churn(db);
    await applyChange(ctx, 'churn', churnFiles, 'churn file', 'churn');
    await restore(ctx, 'churn', churnFiles, 'churn inverse (restores the data)', 'churn inverse');

    // 5: the change file again, while searches run; restored after.
    const filters = await searchFilters(db, databaseUrl, info, options.kinds, options.samples);
    log(`imports: the change file while searches run (${filters.length} filters)`);
    let searches: SearchesDuringImport | undefined;
    await applyChange(ctx, 'change', change, 'change file, searches running', 'change while searching', async (start) => {
      const [run, measured] = await whileSearching(db, filters, start);
      searches = measured;
      return run;
    });
    await restore(ctx, 'change', change, 'change inverse (restores the data, after the searches)', 'change inverse after searching');

    return {
      startedAt,
      finishedAt: new Date().toISOString(),
      revision: gitCommit(),
      machine,
      postgresVersion,
      postgresSettings,
      prewarmed,
      options: { people, kinds: options.kinds, samples: options.samples },
      databases: [{ name: decodeURIComponent(new URL(databaseUrl).pathname.slice(1)), people, companies: info.scale.companies }],
      fileMb,
      notes: ctx.notes,
      rows: ctx.rows,
      searches,
      loadAverage: { start: round(loadAtStart, 2), end: round(os.loadavg()[0]!, 2) },
    };
  } finally {
    await db.close();
  }
}

const inverseFile = (ctx: Context, name: string) => join(ctx.workDir, `${name}-inverse.ndjson`);

/**
 * Writes the change file and its inverse, applies the change (inside `around`, which starts
 * it), and sets it beside a raw COPY of its rows. The inverse is left for `restore`.
 */
async function applyChange(
  ctx: Context,
  name: string,
  files: ChangeFiles,
  label: string,
  measurement: ImportMeasurement,
  around = (start: () => Promise<ImportRun>) => start(),
): Promise<void> {
  mkdirSync(ctx.workDir, { recursive: true });
  const file = join(ctx.workDir, `${name}.ndjson`);
  await writeNdjson(file, files.change);
  await writeNdjson(inverseFile(ctx, name), files.inverse);
  const note = `${name}: ${files.description}`;
  if (!ctx.notes.includes(note)) ctx.notes.push(note);
  try {
    const run = await around(() => runImportCli(ctx.databaseUrl, file, label, files.change.length));
    ctx.rows.push(row(await withRawCopy(run, ctx.databaseUrl, files.change), measurement, ctx.people));
    ctx.log(`  ${label}: ${run.records.toLocaleString('en-US')} records in ${run.seconds} s`);
  } finally {
    rmSync(file, { force: true });
  }
}

/** Applies the inverse applyChange left, beside a raw COPY of its rows, and removes it. */
async function restore(ctx: Context, name: string, files: ChangeFiles, label: string, measurement: ImportMeasurement): Promise<void> {
  const run = await runImportCli(ctx.databaseUrl, inverseFile(ctx, name), label, files.inverse.length);
  ctx.rows.push(row(await withRawCopy(run, ctx.databaseUrl, files.inverse), measurement, ctx.people));
  rmSync(inverseFile(ctx, name), { force: true });
}

/** An inverse left by a run that stopped half-way is applied first, so the data is the dataset again. */
async function recoverInterruptedRun(ctx: Context): Promise<void> {
  for (const name of ['change', 'churn']) {
    if (!existsSync(inverseFile(ctx, name))) continue;
    ctx.log(`restoring the data an interrupted run changed (${name})`);
    await runImportCli(ctx.databaseUrl, inverseFile(ctx, name), `${name} inverse left by an interrupted run`, 0);
    rmSync(inverseFile(ctx, name), { force: true });
    ctx.notes.push(`a previous run stopped before restoring its ${name}; restored first`);
  }
}

const reportedSettings = ['shared_buffers', 'max_wal_size', 'wal_compression'];

async function serverSettings(db: Database): Promise<Record<string, string>> {
  const rows = await db.query<{ name: string; setting: string }>(
    'SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1::text[]) ORDER BY name',
    [reportedSettings],
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
}

const row = (run: ImportRun, measurement: ImportMeasurement, databasePeople: number): ImportRow => ({ ...run, measurement, databasePeople });
