// Staging: the checked chunks of a file (check.ts, in this thread or in workers) are
// copied into their staging tables (db/import/staging.ts), one copy at a time on the
// import's connection while the next records are checked, so memory stays flat whatever
// the file's size. Problems are counted, the first ones kept, in file order.
import type { Transaction } from '../db/engines/database.js';
import type { ImportProblem } from '../db/import/problems.js';
import { copyIntoStaging, type StagingTable } from '../db/import/staging.js';
import { type CheckedChunk, RecordChecker } from './check.js';
import type { NdjsonPiece, Sourced } from './read.js';

/** Characters of COPY text checked in this thread before they are copied. */
const CHUNK_LENGTH = 1 << 20;

/** The first problems of a run, and how many there were in all. */
export class ProblemList {
  readonly first: ImportProblem[] = [];
  count = 0;
  constructor(private readonly keep: number) {}
  add(problem: ImportProblem): void {
    this.addAll([problem], 1);
  }
  /** The problems of a later part of the file: the first of them, and how many. */
  addAll(first: readonly ImportProblem[], count: number): void {
    this.count += count;
    for (const p of first) if (this.first.length < this.keep) this.first.push(p);
  }
}

export class Stager {
  readonly problems: ProblemList;
  records = 0;
  /** The copy under way: the next records are checked while the database takes it. */
  private copying: Promise<void> = Promise.resolve();
  /** Records given one by one are checked here (files can be checked in workers instead: workers.ts). */
  private readonly checker: RecordChecker;

  constructor(
    private readonly tx: Transaction,
    defaultPhoneRegion: string,
    keep: number,
  ) {
    this.problems = new ProblemList(keep);
    this.checker = new RecordChecker(defaultPhoneRegion, keep);
  }

  /** Checks a batch of records here, and copies them once enough are checked. */
  async addBatch(batch: readonly Sourced[]): Promise<void> {
    for (const sourced of batch) this.checker.add(sourced);
    if (this.checker.pendingLength >= CHUNK_LENGTH) await this.addChecked(this.checker.take());
  }

  /** Checks a piece of an NDJSON file here (when it is not checked in workers), and copies once enough are checked. */
  async addPiece(piece: NdjsonPiece): Promise<void> {
    this.checker.addLines(piece);
    if (this.checker.pendingLength >= CHUNK_LENGTH) await this.addChecked(this.checker.take());
  }

  /** Takes a chunk checked elsewhere (the next part of the file): its problems, and its rows to copy. */
  async addChecked(chunk: CheckedChunk): Promise<void> {
    this.records += chunk.records;
    this.problems.addAll(chunk.problems, chunk.problemCount);
    for (const [table, rows] of Object.entries(chunk.rows) as [StagingTable, Uint8Array<ArrayBuffer>][]) await this.copy(table, rows);
  }

  /** Copies what is still checked here, and waits for every copy. */
  async flush(): Promise<void> {
    await this.addChecked(this.checker.take());
    await this.copying;
  }

  private async copy(table: StagingTable, rows: Uint8Array<ArrayBuffer>): Promise<void> {
    if (!rows.length) return;
    // One copy at a time on the connection; this one starts when the one before ends,
    // and is waited for only by the next (or by flush).
    await this.copying;
    this.copying = copyIntoStaging(this.tx, table, rows);
    // (Its failure surfaces where it is waited for, not as an unhandled rejection before.)
    this.copying.catch(() => {});
  }
}
