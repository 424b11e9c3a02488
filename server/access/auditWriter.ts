// The access audit's writer: group commit. An operation hands its entry to record() and
// sends its response only once that resolves, which is once the entry's batch is
// committed. Entries recorded in the same turn of the event loop form one batch; up to
// MAX_WRITES batches are written at once (PostgreSQL then shares one disk flush among
// their commits), and entries recorded while all of them are busy wait and go together in
// the next. So under load one INSERT and one commit carry many responses' entries, and an
// idle service writes an entry at once. If a write fails, every operation in its batch
// fails (with the contract's 500 or 503) instead of sending data the audit does not hold.
// A response is never sent before its entry is committed (with AUDIT_DURABILITY=flush,
// also flushed to disk), so a crash of the service can lose only entries of responses
// that were never sent.
import type { AuditDurability } from '../config.js';
import { insertAuditEntries, type AuditEntry } from '../db/accessAudit.js';
import type { Queryable } from '../db/database.js';

export interface AuditWriterOptions {
  /** `commit`: a batch's commit returns before PostgreSQL flushed it to disk; `flush`: after. */
  durability: AuditDurability;
}

export interface AccessAudit {
  /** Resolves once the entry is committed; rejects when it could not be. */
  record(entry: AuditEntry): Promise<void>;
  /** Waits for the batches being written. */
  close(): Promise<void>;
}

/** Entries per INSERT: bounds a statement's size (a page holds up to 100 ids). */
const MAX_BATCH = 500;
/** Batches written at once: a few connections of the pool at most. */
const MAX_WRITES = 3;

interface Waiting {
  entry: AuditEntry;
  resolve(): void;
  reject(error: unknown): void;
}

export class GroupCommitAuditWriter implements AccessAudit {
  private queue: Waiting[] = [];
  private writes = 0;
  private scheduled = false;
  private drained: (() => void)[] = [];

  constructor(
    private readonly db: Queryable,
    private readonly options: AuditWriterOptions,
  ) {}

  record(entry: AuditEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      if (this.scheduled) return;
      // After this turn of the event loop, so that the entries recorded in it share a write.
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.startWrites();
      });
    });
  }

  async close(): Promise<void> {
    if (this.writes || this.queue.length) await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  private startWrites(): void {
    while (this.queue.length && this.writes < MAX_WRITES) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.writes++;
      insertAuditEntries(this.db, batch.map((w) => w.entry), { synchronousCommit: this.options.durability === 'flush' })
        .then(
          () => batch.forEach((w) => w.resolve()),
          (error) => batch.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          this.writes--;
          this.startWrites();
          if (!this.writes && !this.queue.length) for (const done of this.drained.splice(0)) done();
        });
    }
  }
}

/** AUDIT_ENABLED=false (refused in production): nothing is recorded. */
export const auditOff: AccessAudit = {
  record: () => Promise.resolve(),
  close: () => Promise.resolve(),
};
