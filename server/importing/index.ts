// An import, all or nothing, in one transaction that holds the data writers' lock:
// stream the file through the record checks into staging tables (stage.ts), resolve what
// the file comes to (file order, later records win, snapshots), check it against the
// database, then apply it set-based, or write nothing and name the problems. Readers see
// the database before the file or after it (server/importing/FORMAT.md). A dry run stops
// before the writes and rolls back; an aborted import (its signal) rolls back where it is.
import { stat } from 'node:fs/promises';
import type { Database, Transaction } from '../db/engines/database.js';
import { applyImport, countOutcomes, type Outcome, timed } from '../db/import/apply.js';
import { cancelOnAbort } from '../db/import/cancel.js';
import { findProblems, type ImportProblem, unknownSnapshotCompanies } from '../db/import/problems.js';
import { chooseReach, type Reach } from '../db/import/reach.js';
import { resolveImport } from '../db/import/resolve.js';
import { snapshotDeletions } from '../db/import/snapshotDeletions.js';
import { analyzeStaging, createStagingTables } from '../db/import/staging.js';
import type { Upkeep } from '../db/import/upkeep.js';
import { lockDataWriters } from '../db/stores/writersLock.js';
import { employmentRecordKindNames } from '../domain/employment.js';
import type { ImportProgress } from './progress.js';
import { fileKind, ImportParseError, type ImportSource, ndjsonPieces, readBatches } from './read.js';
import { type ImportRecord, type StoredRecordType, storedRecordTypes } from './records.js';
import { emptySnapshotProblems, type SnapshotGuard, snapshotDeletionProblems } from './snapshotGuard.js';
import { Stager } from './stage.js';
import { checkedInWorkers, type WorkerOptions } from './workers.js';

export type { ImportProblem };
export { ImportParseError, type ImportSource };

/**
 * Settings of the session an import runs in (the import command opens its own). A file's
 * records are staged and resolved in temporary tables, which live in the session's
 * temp_buffers: at the server default (8MB) they spill to disk while they are sorted and
 * joined. It can only be set before the session touches a temporary table, hence at connect.
 */
export const IMPORT_SESSION_SETTINGS: Record<string, string> = { temp_buffers: '256MB' };

/** How many problems a rejection lists (all are counted). */
export const PROBLEMS_LISTED = 100;

export class ImportRejected extends Error {
  constructor(
    /** The first problems, by line. */
    readonly problems: ImportProblem[],
    /** How many problems there are in all. */
    readonly total: number = problems.length,
  ) {
    super(`import rejected: ${total} problem(s); nothing was written`);
  }
}

export interface ImportOptions {
  defaultPhoneRegion: string;
  /** Companies whose employments the file holds whole: those of theirs it lacks are deleted. */
  snapshotCompanies?: readonly string[];
  /**
   * How an NDJSON file is checked in worker threads (workers.ts); `false` checks it in this
   * thread. By default, only a file of WORKERS_FROM_BYTES or more goes to workers.
   */
  workers?: WorkerOptions | false;
  /** How the stored rows the file touches are reached (db/import/reach.ts); by default chosen from the file's size. */
  reach?: Reach;
  /** Write how long each step and statement took to stderr, for tuning (the import command: IMPORT_TIMINGS=1, config.ts). */
  timings?: boolean;
  /** Refuses a snapshot that would delete too much, and any snapshot of an empty file (snapshotGuard.ts); none by default. */
  snapshotGuard?: SnapshotGuard;
  /** Checks and resolves the whole file and counts what it would do, then rolls back: nothing is written. */
  dryRun?: boolean;
  /** Told what the import is doing, as it goes (progress.ts). */
  progress?: ImportProgress;
  /** Aborting it stops the import where it is and rolls it back (ImportInterrupted), up to its writes' end. */
  signal?: AbortSignal;
}

/** The import stopped on its signal before it committed: nothing was written. */
export class ImportInterrupted extends Error {
  constructor() {
    super('import interrupted, nothing was written');
  }
}

/** Below this size a file is checked in the import's own thread: starting workers costs more than they save. */
export const WORKERS_FROM_BYTES = 16 * 1024 * 1024;

async function checkInWorkers(path: string, workers: ImportOptions['workers']): Promise<boolean> {
  if (workers === false) return false;
  return workers !== undefined || (await stat(path)).size >= WORKERS_FROM_BYTES;
}

export type OutcomeCounts = Record<Outcome, number>;
/** Per record type: how many were added, changed, unchanged, deleted, already absent. */
export type ImportSummary = Record<StoredRecordType, OutcomeCounts> & {
  records: number;
  /** How the derived data was kept up to date (db/import/upkeep.ts); none in a dry run. */
  upkeep?: Upkeep;
  /** Counted, not written. */
  dryRun?: true;
};

/** Thrown through the transaction of a dry run to roll it back, with what it counted. */
class DryRunDone {
  constructor(readonly summary: ImportSummary) {}
}

export async function importFile(db: Database, path: string, options: ImportOptions): Promise<ImportSummary> {
  return importSource(db, { path }, options);
}

export async function importText(db: Database, text: string, options: ImportOptions | string): Promise<ImportSummary> {
  return importSource(db, { text }, options);
}

export async function importRecords(db: Database, records: Iterable<ImportRecord>, options: ImportOptions | string): Promise<ImportSummary> {
  return importSource(db, { records }, options);
}

export async function importSource(db: Database, source: ImportSource, given: ImportOptions | string): Promise<ImportSummary> {
  const options = typeof given === 'string' ? { defaultPhoneRegion: given } : given;
  const { signal, progress } = options;
  const timings = options.timings === true;
  let last = performance.now();
  const step = (name: string) => {
    signal?.throwIfAborted();
    if (!timings) return;
    const now = performance.now();
    process.stderr.write(`import step ${name}: ${Math.round(now - last)} ms\n`);
    last = now;
  };
  try {
    signal?.throwIfAborted();
    // (A file that is not UTF-8 text at all is refused before the database is touched.)
    const ndjsonFile = 'path' in source && (await fileKind(source.path)) === 'ndjson' ? source.path : undefined;
    return await db.transaction(async (given) => {
      const tx = timings ? timed(given) : given;
      // A statement under way is cancelled on abort (PostgreSQL); either engine stops at the next step.
      const stopCancelling = await cancelOnAbort(db, tx, signal);
      progress?.step('waiting for another import');
      // One import at a time, and no other writer's upkeep in between (server/db/derived).
      await lockDataWriters(tx);
      await tx.query('SET LOCAL statement_timeout = 0');
      // Room to sort and hash a whole file's records in memory (the upkeep's sorts, the resolve's joins).
      await tx.query("SET LOCAL work_mem = '256MB'");
      // An initial load's index builds (deferredIndexes.ts) sort in PostgreSQL's default,
      // whatever the server's: 256MB sorted slower on two cores (docs/performance.md), and at
      // 64MB a build takes at most one parallel worker (each participant needs 32MB).
      await tx.query("SET LOCAL maintenance_work_mem = '64MB'");
      await createStagingTables(tx);
      progress?.step('reading and checking');
      const stager = await stageSource(tx, source, ndjsonFile, options);
      step('read, check and stage');
      const summary = await resolveAndApply(tx, stager, options, step);
      // PGlite's statements cannot be cancelled and hold the event loop, so a signal's handler
      // has not run yet: let it run, and a signal that came during them rolls back here.
      await letSignalsIn();
      signal?.throwIfAborted();
      stopCancelling();
      // (Past here it commits, signal or not: the CLI says so.)
      step('done');
      if (!options.dryRun) progress?.step('committing');
      return summary;
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.summary;
    if (signal?.aborted) throw new ImportInterrupted();
    throw error;
  }
}

/** Streams the source through the record checks into the staging tables. */
async function stageSource(tx: Transaction, source: ImportSource, ndjsonFile: string | undefined, options: ImportOptions): Promise<Stager> {
  const stager = new Stager(tx, options.defaultPhoneRegion, PROBLEMS_LISTED);
  const { signal, progress } = options;
  const checked = () => {
    signal?.throwIfAborted();
    progress?.checked(stager.records);
  };
  if (ndjsonFile && (await checkInWorkers(ndjsonFile, options.workers))) {
    const data = { defaultPhoneRegion: options.defaultPhoneRegion, keep: PROBLEMS_LISTED };
    for await (const chunk of checkedInWorkers(ndjsonFile, data, options.workers || undefined)) {
      await stager.addChecked(chunk);
      checked();
    }
  } else if (ndjsonFile) {
    for await (const piece of ndjsonPieces(ndjsonFile)) {
      await stager.addPiece(piece);
      checked();
    }
  } else {
    for await (const batch of readBatches(source)) {
      await stager.addBatch(batch);
      checked();
    }
  }
  await stager.flush();
  checked();
  return stager;
}

/** What the staged file comes to: its problems (thrown, ImportRejected), or its counts, written unless a dry run. */
async function resolveAndApply(tx: Transaction, stager: Stager, options: ImportOptions, step: (name: string) => void): Promise<ImportSummary> {
  const snapshots = [...new Set(options.snapshotCompanies ?? [])];
  const { progress } = options;
  await analyzeStaging(tx);
  step('analyze');
  progress?.step('resolving');
  // The database checks run even when records failed their own, so one run names them all.
  const reach = options.reach ?? (await chooseReach(tx, stager.records));
  await resolveImport(tx, snapshots, reach);
  step('resolve');
  progress?.step('checking against the database');
  for (const company of await unknownSnapshotCompanies(tx, snapshots)) {
    stager.problems.add({ line: 0, record: `--snapshot ${company}`, message: `unknown company ${company}: not in this import nor in the database` });
  }
  if (options.snapshotGuard && snapshots.length) {
    const guarded = stager.records ? snapshotDeletionProblems(await snapshotDeletions(tx, snapshots), options.snapshotGuard) : emptySnapshotProblems(snapshots);
    for (const problem of guarded) stager.problems.add(problem);
  }
  const found = await findProblems(tx, PROBLEMS_LISTED);
  step('problems');
  const total = stager.problems.count + found.count;
  if (total) {
    const first = [...stager.problems.first, ...found.first].sort((a, b) => a.line - b.line).slice(0, PROBLEMS_LISTED);
    throw new ImportRejected(first, total);
  }
  const counts = await countOutcomes(tx, employmentRecordKindNames);
  step('count');
  const summary = { records: stager.records } as ImportSummary;
  for (const type of storedRecordTypes) {
    const c = counts[type] ?? {};
    summary[type] = {
      added: c.added ?? 0,
      changed: c.changed ?? 0,
      unchanged: c.unchanged ?? 0,
      deleted: c.deleted ?? 0,
      already_absent: c.already_absent ?? 0,
    };
  }
  if (options.dryRun) throw new DryRunDone({ ...summary, dryRun: true });
  progress?.step('writing');
  summary.upkeep = await applyImport(tx, reach);
  step('apply');
  return summary;
}

/**
 * Lets the event loop poll once, so that a signal that came while the loop was held is
 * handled: a timer, then an immediate, which runs only after the poll of the timer's turn
 * (an immediate alone, resumed from an I/O callback, runs before the loop polls again, and
 * the poll is where a signal is read).
 */
export async function letSignalsIn(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
}
