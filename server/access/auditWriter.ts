// The access audit's writer: group commit. An operation hands its entry to record() and
// sends its response only once that resolves, which is once the entry's batch is
// committed. Entries that arrive while a batch is being written wait for the next one,
// written as soon as the first commits: under load one INSERT and one commit carry many
// responses' entries, and with none in flight an entry is written at once. If a write
// fails, every operation in its batch fails (with the contract's 500 or 503) instead of
// sending data the audit does not hold. A response is never sent before its entry is
// committed (and, unless AUDIT_SYNCHRONOUS_COMMIT=false, flushed to disk), so a crash of
// the service can lose only entries of responses that were never sent.
import { insertAuditEntries, type AuditEntry } from '../db/accessAudit.js';
import type { Queryable } from '../db/database.js';

export interface AuditWriterOptions {
  /** False: a batch's commit returns before PostgreSQL flushed it to disk (AUDIT_SYNCHRONOUS_COMMIT). */
  synchronousCommit: boolean;
}

export interface AccessAudit {
  /** Resolves once the entry is committed; rejects when it could not be. */
  record(entry: AuditEntry): Promise<void>;
  /** Waits for the batches being written. */
  close(): Promise<void>;
}

/** Entries per INSERT: bounds a statement's size (a page holds up to 100 ids). */
const MAX_BATCH = 500;

interface Waiting {
  entry: AuditEntry;
  resolve(): void;
  reject(error: unknown): void;
}

export class GroupCommitAuditWriter implements AccessAudit {
  private queue: Waiting[] = [];
  private writing: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly options: AuditWriterOptions = { synchronousCommit: true },
  ) {}

  record(entry: AuditEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      // Start after the current turn of the event loop, so that entries recorded in the
      // same turn share the first write too.
      this.writing ??= new Promise<void>((started) => setImmediate(started)).then(() => this.drain());
    });
  }

  async close(): Promise<void> {
    await this.writing;
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await insertAuditEntries(this.db, batch.map((w) => w.entry), this.options);
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.writing = undefined;
  }
}

/** AUDIT_ENABLED=false (refused in production): nothing is recorded. */
export const auditOff: AccessAudit = {
  record: () => Promise.resolve(),
  close: () => Promise.resolve(),
};
