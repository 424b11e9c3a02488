// The import command's progress on stderr (progress.ts says what an import reports). On a
// terminal, one live line, rewritten a few times a second; otherwise (a log, a pipe) a
// line every 5 s. The lines are written by a thread of their own (progressWorker.ts, plain JavaScript):
// the embedded database runs each statement in the import's thread, which a long one
// holds for many seconds, and the line must go on meanwhile. The import's thread only
// sets two numbers both threads share.
import { Worker } from 'node:worker_threads';
import type { ImportProgress, ImportStep } from './progress.js';
import { progressThreadSource } from './progressWorker.js';

export const importSteps: readonly ImportStep[] = [
  'waiting for another import',
  'reading and checking',
  'resolving',
  'checking against the database',
  'writing',
  'committing',
];

/** What progressWorker.ts is given. */
export interface ProgressWorkerData {
  /** [step index, records read and checked]. */
  shared: SharedArrayBuffer;
  /** A live line (terminal), or a line every `everyMs`. */
  live: boolean;
  everyMs: number;
  startedAt: number;
  steps: readonly ImportStep[];
  /** Said before each line, e.g. "import" or "import (dry run)". */
  label: string;
}

export class ProgressReport implements ImportProgress {
  private readonly shared = new SharedArrayBuffer(8);
  private readonly numbers = new Int32Array(this.shared);
  private readonly worker: Worker;
  private readonly live: boolean;

  constructor(options: { live: boolean; everyMs?: number; label: string }) {
    this.live = options.live;
    const data: ProgressWorkerData = {
      shared: this.shared,
      live: options.live,
      everyMs: options.everyMs ?? (options.live ? 250 : 5_000),
      startedAt: Date.now(),
      steps: importSteps,
      label: options.label,
    };
    this.worker = new Worker(progressThreadSource, { eval: true, workerData: data, stdout: false, stderr: false });
    // (It never keeps the command alive.)
    this.worker.unref();
  }

  step(step: ImportStep): void {
    Atomics.store(this.numbers, 0, importSteps.indexOf(step));
  }

  checked(records: number): void {
    Atomics.store(this.numbers, 1, Math.min(records, 2 ** 31 - 1));
  }

  /** Stops the line (a live one is cleared, for what the command prints next). */
  async stop(): Promise<void> {
    await this.worker.terminate();
    if (this.live) process.stderr.write('\r\x1b[K');
  }
}
