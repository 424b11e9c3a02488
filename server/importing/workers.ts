// An NDJSON file's records checked in worker threads (checkWorker.ts) while the import's
// own thread copies what they have checked into staging: reading, JSON parsing and the
// record checks are most of a large import's time in Node, and the copy waits on the
// database, so the two overlap. Pieces go out in file order and their chunks come back in
// file order, so problems are listed as they would be in one thread. A worker that fails
// fails the import (nothing is written: the transaction rolls back).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CheckedChunk } from './check.js';
import { type NdjsonPiece, ndjsonPieces } from './read.js';
import { workerEntry } from './workerEntry.js';

export interface CheckWorkerData {
  defaultPhoneRegion: string;
  /** Problems kept per chunk (all are counted). */
  keep: number;
  /** Tests only: the worker throws on this piece (counting from 1). */
  failOnPiece?: number;
}

export interface WorkerOptions {
  /** Worker threads (default: DEFAULT_WORKERS, fewer on fewer cores). */
  workers?: number;
  /** Bytes of the file per piece handed to a worker. */
  pieceBytes?: number;
  /** Tests only: a worker throws on its piece of this number. */
  failOnPiece?: number;
}

/**
 * Per worker: a heap small enough that the import stays within its memory budget
 * (docs/operating/import.md). A young generation of 4 MB rather than 16 took about 25 MB
 * off the import's peak RSS (issue 59; 100,000 people: 238-245 MB, 221-225 at 8 MB,
 * 211-217 at 4 MB) for no CPU time measurable (the process's, three runs each).
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 };

/**
 * Two, on as many cores: one worker alone left the second core partly idle while this
 * thread and the database took the copy (issue 59); a third staged no faster on two cores.
 * Each one costs memory, and the copy they feed goes over one connection.
 */
const DEFAULT_WORKERS = 2;

const entry = workerEntry('checkWorker');

class CheckWorker {
  private readonly worker: Worker;
  private readonly waiting: { resolve: (chunk: CheckedChunk) => void; reject: (error: Error) => void }[] = [];
  private failure?: Error;

  constructor(data: CheckWorkerData) {
    this.worker = new Worker(entry.script, { eval: entry.eval, workerData: data, resourceLimits: WORKER_LIMITS });
    this.worker.on('message', (chunk: CheckedChunk) => this.waiting.shift()?.resolve(chunk));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`an import check worker stopped (exit code ${code})`)));
  }

  check(piece: NdjsonPiece): Promise<CheckedChunk> {
    if (this.failure) return Promise.reject(this.failure);
    const checked = new Promise<CheckedChunk>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.worker.postMessage(piece, [piece.bytes.buffer]);
    return checked;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const w of this.waiting.splice(0)) w.reject(this.failure);
  }

  async close(): Promise<void> {
    this.failure ??= new Error('closed');
    await this.worker.terminate();
  }
}

/** The checked chunks of an NDJSON file, in file order. */
export async function* checkedInWorkers(path: string, data: Omit<CheckWorkerData, 'failOnPiece'>, options: WorkerOptions = {}): AsyncGenerator<CheckedChunk> {
  const count = Math.max(1, options.workers ?? Math.min(DEFAULT_WORKERS, availableParallelism()));
  const workers = Array.from({ length: count }, () => new CheckWorker({ ...data, failOnPiece: options.failOnPiece }));
  // Pieces in flight: enough to keep every worker busy while a chunk is copied, few enough for memory.
  const inFlight: Promise<CheckedChunk>[] = [];
  const most = count * 2;
  try {
    let next = 0;
    for await (const piece of ndjsonPieces(path, options.pieceBytes)) {
      const checked = workers[next++ % count]!.check(piece);
      // (A failure surfaces where the chunk is waited for, not as an unhandled rejection before.)
      checked.catch(() => {});
      inFlight.push(checked);
      if (inFlight.length >= most) yield await inFlight.shift()!;
    }
    while (inFlight.length) yield await inFlight.shift()!;
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
}
