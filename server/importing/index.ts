// An import, all or nothing, in one transaction that holds the data writers' lock:
// stream the file through the record checks into staging tables (stage.ts), resolve what
// the file comes to (file order, later records win, snapshots), check it against the
// database, then apply it set-based, or write nothing and name the problems. Readers see
// the database before the file or after it (server/importing/FORMAT.md).
import { stat } from 'node:fs/promises';
import type { Database } from '../db/engines/database.js';
import { applyImport, countOutcomes, type Outcome } from '../db/import/apply.js';
import { findProblems, type ImportProblem, unknownSnapshotCompanies } from '../db/import/problems.js';
import { chooseReach, type Reach } from '../db/import/reach.js';
import { resolveImport } from '../db/import/resolve.js';
import { analyzeStaging, createStagingTables } from '../db/import/staging.js';
import type { Upkeep } from '../db/import/upkeep.js';
import { lockDataWriters } from '../db/stores/writersLock.js';
import { employmentRecordKindNames } from '../domain/employment.js';
import { ImportParseError, type ImportSource, isNdjsonFile, readBatches } from './read.js';
import { type ImportRecord, type StoredRecordType, storedRecordTypes } from './records.js';
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
}

/** Below this size a file is checked in the import's own thread: starting workers costs more than they save. */
export const WORKERS_FROM_BYTES = 16 * 1024 * 1024;

async function checkInWorkers(source: ImportSource, workers: ImportOptions['workers']): Promise<boolean> {
  if (workers === false || !(await isNdjsonFile(source))) return false;
  return workers !== undefined || (await stat((source as { path: string }).path)).size >= WORKERS_FROM_BYTES;
}

export type OutcomeCounts = Record<Outcome, number>;
/** Per record type: how many were added, changed, unchanged, deleted, already absent. */
export type ImportSummary = Record<StoredRecordType, OutcomeCounts> & {
  records: number;
  /** How the derived data was kept up to date (db/import/upkeep.ts). */
  upkeep: Upkeep;
};

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
  const snapshots = [...new Set(options.snapshotCompanies ?? [])];
  // IMPORT_TIMINGS=1 writes how long each step took to stderr (for tuning).
  const timings = process.env.IMPORT_TIMINGS === '1';
  let last = performance.now();
  const step = (name: string) => {
    if (!timings) return;
    const now = performance.now();
    process.stderr.write(`import step ${name}: ${Math.round(now - last)} ms\n`);
    last = now;
  };
  return db.transaction(async (tx) => {
    // One import at a time, and no other writer's upkeep in between (server/db/derived).
    await lockDataWriters(tx);
    await tx.query('SET LOCAL statement_timeout = 0');
    // Room to sort and hash a whole file's records in memory (the upkeep's sorts, the resolve's joins).
    await tx.query("SET LOCAL work_mem = '256MB'");
    // (And to sort an initial load's index entries when its indexes are built after its rows.)
    await tx.query("SET LOCAL maintenance_work_mem = '256MB'");
    await createStagingTables(tx);
    const stager = new Stager(tx, options.defaultPhoneRegion, PROBLEMS_LISTED);
    if (await checkInWorkers(source, options.workers)) {
      const data = { defaultPhoneRegion: options.defaultPhoneRegion, keep: PROBLEMS_LISTED };
      for await (const chunk of checkedInWorkers((source as { path: string }).path, data, options.workers || undefined)) await stager.addChecked(chunk);
    } else for await (const batch of readBatches(source)) await stager.addBatch(batch);
    await stager.flush();
    step('read, check and stage');
    if (stager.unparsable.count) {
      const listed = stager.unparsable.first.map((p) => `line ${p.line}: ${p.message}`);
      const more = stager.unparsable.count - listed.length;
      throw new ImportParseError([...listed, ...(more > 0 ? [`... and ${more} more`] : [])].join('\n'));
    }
    await analyzeStaging(tx);
    step('analyze');

    // The database checks run even when records failed their own, so one run names them all.
    const reach = options.reach ?? (await chooseReach(tx, stager.records));
    await resolveImport(tx, snapshots, reach);
    step('resolve');
    for (const company of await unknownSnapshotCompanies(tx, snapshots)) {
      stager.problems.add({ line: 0, record: `--snapshot ${company}`, message: `unknown company ${company}: not in this import nor in the database` });
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
    const upkeep = await applyImport(tx, reach);
    step('apply');
    const summary = { records: stager.records, upkeep } as ImportSummary;
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
    return summary;
  });
}
