// The bench's change phases (`--phases import,change,churn`), on PostgreSQL, each through
// `npm run import` as an operator runs it (its own process, its peak RSS sampled), beside
// a raw COPY of the same rows in the same run:
//   import  the whole dataset written as one NDJSON file, loaded into an empty database
//           (records/s, peak RSS), then re-applied unchanged (records/s);
//   change  a change file touching 1% of the people applied to the bench database alone
//           (its time), restored by its inverse, then applied again with searches running
//           (their p99 against an idle period just before) and restored again;
//   churn   10% of employments changed, 1% relinked, 1% deleted, before the read
//           measurements (so they are taken after churn); its inverse after them.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { findPersons } from '../../server/db/persons/persons.js';
import { migrate } from '../../server/db/schema/migrate.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import type { EmployeeRecord, EmploymentRecord, ImportRecord } from '../../server/importing/records.js';
import { copyLine, storedEmploymentColumns, storedEmploymentRow } from '../../server/importing/storedRows.js';
import type { Dataset } from '../dataset/generate.js';
import { onEveryCpu } from '../machine.js';
import { nodeFlagsOf } from '../nodeFlags.js';
import { RssSampler } from '../rss.js';
import { percentile, round } from '../stats.js';
import { copyLines } from './copyLines.js';
import { withDatabaseWork } from './databaseWork.js';
import { type ChangeFiles, churn, datasetRecords, peopleChange, writeNdjson } from './files.js';
import { CHANGE_ALONE, CHANGE_WHILE_SEARCHING } from './labels.js';

export type Phase = 'import' | 'change' | 'churn';
export const phases: Phase[] = ['import', 'change', 'churn'];

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Node's flags in `npm run import`, so the bench runs the import exactly as an operator does. */
const importNodeFlags = nodeFlagsOf('import');

export interface ImportRun {
  label: string;
  records: number;
  /** As the import reports it (its transaction), and from spawn to exit. */
  seconds: number;
  wallSeconds: number;
  recordsPerSecond: number;
  peakRssMb?: number;
  /** The same rows landed by a raw COPY into tables of the same columns, without indexes, constraints or derived data. */
  copySeconds?: number;
  copyRecordsPerSecond?: number;
  /** What the import made the database do (databaseWork.ts). */
  walMb?: number;
  fullPageImages?: number;
  pieceEntries?: number;
  summary: string;
}

export interface SearchesDuringImport {
  filters: string;
  idle: { requests: number; p50: number; p99: number };
  during: { requests: number; p50: number; p99: number; seconds: number };
}

export interface ChangeResults {
  imports: ImportRun[];
  searches?: SearchesDuringImport;
  fileMb?: number;
  notes: string[];
}

/** Runs `npm run import` (server/cli/import.ts) on `file`, sampling its memory and reading what it made the database do. */
export async function runImportCli(databaseUrl: string, file: string, label: string, records: number): Promise<ImportRun> {
  const [run, work] = await withDatabaseWork(databaseUrl, () => spawnImport(databaseUrl, file, label, records));
  return { ...run, ...work };
}

async function spawnImport(databaseUrl: string, file: string, label: string, records: number): Promise<ImportRun> {
  const started = performance.now();
  // (Unpinned: the bench's own pinning would put the import's worker threads on one core.)
  const [command, ...args] = onEveryCpu([process.execPath, ...importNodeFlags, '--import', 'tsx', join(root, 'server/cli/import.ts'), file]);
  const child = spawn(command!, args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PGLITE_DATA_DIR: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const rss = new RssSampler(child.pid!, 200).start();
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wallSeconds = (performance.now() - started) / 1000;
  const peak = rss.stop()?.peakMb;
  if (code !== 0) throw new Error(`import of ${label} failed (${code}): ${out.slice(-3000)}`);
  const ms = Number(/imported \d+ record\(s\) in (\d+) ms/.exec(out)?.[1]);
  const seconds = ms / 1000;
  return {
    label,
    records,
    seconds: round(seconds, 2),
    wallSeconds: round(wallSeconds, 2),
    recordsPerSecond: Math.round(records / seconds),
    peakRssMb: peak,
    summary: out.trim(),
  };
}

/** `run` beside a raw COPY of the same records (rawCopy: the fastest of RAW_COPIES), into the same database, in the same run. */
export async function withRawCopy(run: ImportRun, databaseUrl: string, records: Iterable<ImportRecord>, digits = 3): Promise<ImportRun> {
  run.copySeconds = round(await rawCopy(databaseUrl, records), digits);
  run.copyRecordsPerSecond = Math.round(run.records / run.copySeconds);
  return run;
}

/**
 * Raw COPYs per reference, of which the fastest is taken: a COPY is only ever slowed, by
 * the host's other work or by the disk still writing the one before, and every goal is a
 * ratio to it, so the fastest is the floor it stands for.
 */
export const RAW_COPIES = 3;

/** A raw COPY of the rows these records store, into unindexed tables of the same columns: the floor of landing them (seconds, the fastest of RAW_COPIES). */
async function rawCopy(databaseUrl: string, records: Iterable<ImportRecord>): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const persons: string[] = [];
    const employees: string[] = [];
    const times = new Map<string, { createdAt: string; updatedAt: string }>();
    let pending: { employee: EmployeeRecord; records: EmploymentRecord[] } | undefined;
    const flushEmployee = () => {
      if (pending)
        employees.push(
          copyLine(storedEmploymentRow(pending.employee, pending.records, pending.employee.personId ? (times.get(pending.employee.personId) ?? null) : null)),
        );
      pending = undefined;
    };
    for (const r of records) {
      if (r.type === 'person') {
        persons.push(copyLine([r.id, r.createdAt, r.updatedAt]));
        times.set(r.id, r);
        if (times.size > 10_000) times.delete(times.keys().next().value!);
      } else if (r.type === 'employee') {
        flushEmployee();
        pending = { employee: r, records: [] };
      } else if (pending && 'employeeId' in r && r.type !== 'delete') pending.records.push(r);
    }
    flushEmployee();
    const seconds: number[] = [];
    for (let i = 0; i < RAW_COPIES; i++) {
      await client.query('DROP TABLE IF EXISTS bench_copy_persons, bench_copy_employees');
      await client.query('CREATE UNLOGGED TABLE bench_copy_persons (LIKE persons INCLUDING DEFAULTS)');
      await client.query('CREATE UNLOGGED TABLE bench_copy_employees (LIKE employees INCLUDING DEFAULTS)');
      // Rows are built first (the generator's cost is not COPY's); the copy alone is timed.
      const started = performance.now();
      await copyLines(client, 'bench_copy_persons (id, created_at, updated_at)', persons);
      await copyLines(client, `bench_copy_employees (${storedEmploymentColumns.join(', ')})`, employees);
      seconds.push((performance.now() - started) / 1000);
    }
    await client.query('DROP TABLE bench_copy_persons, bench_copy_employees');
    return Math.min(...seconds);
  } finally {
    await client.end();
  }
}

/** Searches (the given filters, round-robin, `concurrency` at once) until `until` resolves or `seconds` pass; latencies in ms. */
export async function searchWhile(db: Database, filters: PersonFilter[], concurrency: number, seconds: number, until?: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  const deadline = performance.now() + seconds * 1000;
  until?.then(
    () => (done = true),
    () => (done = true),
  );
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!done && (until || performance.now() < deadline)) {
        const t = performance.now();
        await findPersons(db, filters[next++ % filters.length]!);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies;
}

export const latencyStats = (latencies: number[]) => ({
  requests: latencies.length,
  p50: round(percentile(latencies, 0.5), 2),
  p99: round(percentile(latencies, 0.99), 2),
});

export interface PhaseContext {
  databaseUrl: string;
  dataset: Dataset;
  /** Where files go (large: the whole dataset is about 1.6 GB at 1M people). */
  workDir: string;
  /** Search filters for the searches-during-import measurement. */
  searchFilters: PersonFilter[];
  log: (line: string) => void;
}

/** The import phase: the whole dataset into an empty database of its own, then re-applied unchanged. */
export async function importPhase(ctx: PhaseContext, results: ChangeResults): Promise<void> {
  mkdirSync(ctx.workDir, { recursive: true });
  const file = join(ctx.workDir, 'dataset.ndjson');
  const url = new URL(ctx.databaseUrl);
  const name = `${decodeURIComponent(url.pathname.slice(1))}_import`;
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: new URL('/postgres', ctx.databaseUrl).toString() });
  await admin.connect();
  try {
    ctx.log('import phase: writing the whole dataset as one NDJSON file');
    const records = await writeNdjson(file, datasetRecords(ctx.dataset));
    results.fileMb = Math.round(statSync(file).size / 1e6);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const db = await openDatabase({ databaseUrl: url.toString(), poolMax: 1 });
    await migrate(db);
    await db.close();
    ctx.log(`import phase: npm run import of ${records.toLocaleString('en-US')} records (${results.fileMb} MB) into an empty database`);
    const initial = await runImportCli(url.toString(), file, 'initial load (whole dataset, empty database)', records);
    ctx.log(`  ${initial.recordsPerSecond.toLocaleString('en-US')} records/s, ${initial.seconds} s, peak RSS ${initial.peakRssMb} MB`);
    results.imports.push(await withRawCopy(initial, url.toString(), datasetRecords(ctx.dataset), 2));
    ctx.log('import phase: the same file again (unchanged)');
    const again = await runImportCli(url.toString(), file, 're-applied unchanged (whole dataset)', records);
    again.copySeconds = initial.copySeconds;
    again.copyRecordsPerSecond = initial.copyRecordsPerSecond;
    ctx.log(`  ${again.recordsPerSecond.toLocaleString('en-US')} records/s, ${again.seconds} s, peak RSS ${again.peakRssMb} MB`);
    results.imports.push(again);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end();
    rmSync(file, { force: true });
  }
}

/**
 * A change file applied and timed beside a raw COPY of its rows (reported as `runLabel`);
 * its inverse is left for `undo`.
 */
export async function applyBoth(
  ctx: PhaseContext,
  files: ChangeFiles,
  label: string,
  results: ChangeResults,
  during?: (applying: Promise<ImportRun>) => Promise<void>,
  runLabel = `${label} file`,
): Promise<void> {
  mkdirSync(ctx.workDir, { recursive: true });
  const change = join(ctx.workDir, `${label}.ndjson`);
  const inverse = join(ctx.workDir, `${label}-inverse.ndjson`);
  await writeNdjson(change, files.change);
  await writeNdjson(inverse, files.inverse);
  const note = `${label}: ${files.description}`;
  if (!results.notes.includes(note)) results.notes.push(note);
  try {
    const applying = runImportCli(ctx.databaseUrl, change, runLabel, files.change.length);
    await during?.(applying);
    const run = await withRawCopy(await applying, ctx.databaseUrl, files.change);
    results.imports.push(run);
    ctx.log(`  ${label}: ${run.records.toLocaleString('en-US')} records in ${run.seconds} s`);
  } catch (error) {
    rmSync(change, { force: true });
    throw error;
  }
  rmSync(change, { force: true });
}

/**
 * Applies an inverse file left by applyBoth (after the measurements that needed the
 * change), then, unless `once`, again, unchanged. Returns the runs (also in `results`).
 */
export async function undo(ctx: PhaseContext, label: string, results: ChangeResults, once = false): Promise<ImportRun[]> {
  const inverse = join(ctx.workDir, `${label}-inverse.ndjson`);
  const { count } = await countLines(inverse);
  const runs = [await runImportCli(ctx.databaseUrl, inverse, `${label} inverse (restores the data)`, count)];
  if (!once) runs.push(await runImportCli(ctx.databaseUrl, inverse, `${label} inverse re-applied (unchanged)`, count));
  results.imports.push(...runs);
  rmSync(inverse, { force: true });
  return runs;
}

async function countLines(path: string): Promise<{ count: number }> {
  const { readFile } = await import('node:fs/promises');
  return { count: (await readFile(path, 'utf8')).split('\n').filter(Boolean).length };
}

/**
 * The change phase: 1% of the people changed alone (the file's own time), restored, then
 * changed again while searches run (their p99, and the file's time sharing the machine
 * with them), and restored again.
 */
export async function changePhase(ctx: PhaseContext, results: ChangeResults): Promise<void> {
  const db = await openDatabase({ databaseUrl: ctx.databaseUrl, poolMax: 4 });
  try {
    ctx.log('change phase: writing a change file touching 1% of the people');
    const files = await peopleChange(db, 0.01);
    await applyBoth(ctx, files, 'change', results, undefined, CHANGE_ALONE);
    await undo(ctx, 'change', results, true);
    await changeWhileSearching(ctx, db, files, results);
    await undo(ctx, 'change', results);
  } finally {
    await db.close();
  }
}

/** Seconds of searches with nothing being imported, just before the change file is applied with searches running. */
export const IDLE_SEARCH_SECONDS = 8;

/**
 * Searches (ctx.searchFilters, 4 at once) for IDLE_SEARCH_SECONDS, then while the change
 * file is applied (`CHANGE_WHILE_SEARCHING`): their latencies in `results.searches`. The
 * change's inverse is left for `undo`.
 */
export async function changeWhileSearching(ctx: PhaseContext, db: Database, files: ChangeFiles, results: ChangeResults): Promise<void> {
  const idle = await searchWhile(db, ctx.searchFilters, 4, IDLE_SEARCH_SECONDS);
  let during: number[] = [];
  let duringSeconds = 0;
  const searching = async (applying: Promise<ImportRun>) => {
    const started = performance.now();
    during = await searchWhile(db, ctx.searchFilters, 4, 0, applying);
    duringSeconds = (performance.now() - started) / 1000;
  };
  await applyBoth(ctx, files, 'change', results, searching, CHANGE_WHILE_SEARCHING);
  results.searches = {
    filters: 'the bench filter kinds (one large company), 4 at once',
    idle: latencyStats(idle),
    during: { ...latencyStats(during), seconds: round(duringSeconds, 1) },
  };
}

/** The churn phase, first half: applied before the read measurements. */
export async function churnBefore(ctx: PhaseContext, results: ChangeResults): Promise<void> {
  const db = await openDatabase({ databaseUrl: ctx.databaseUrl, poolMax: 2 });
  try {
    ctx.log('churn phase: 10% of employments changed, 1% relinked, 1% deleted');
    await applyBoth(ctx, await churn(db), 'churn', results);
    await db.query('ANALYZE');
  } finally {
    await db.close();
  }
}

/** The churn phase, second half: restored after the read measurements. */
export async function churnAfter(ctx: PhaseContext, results: ChangeResults): Promise<void> {
  await undo(ctx, 'churn', results);
}

/** An inverse file left by a run that stopped half-way is applied first, so the data is the dataset again. */
export async function recoverInterruptedRun(ctx: PhaseContext, results: ChangeResults): Promise<void> {
  for (const label of ['change', 'churn']) {
    const inverse = join(ctx.workDir, `${label}-inverse.ndjson`);
    try {
      statSync(inverse);
    } catch {
      continue;
    }
    ctx.log(`restoring the data an interrupted run changed (${label})`);
    await runImportCli(ctx.databaseUrl, inverse, `${label} inverse left by an interrupted run`, 0);
    rmSync(inverse, { force: true });
    results.notes.push(`a previous run stopped before restoring its ${label}; restored first`);
  }
}
