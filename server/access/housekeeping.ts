// The service's own periodic job (no cron): deletes access-audit entries older than
// AUDIT_RETENTION_DAYS and the change feed's changes older than CHANGES_RETENTION, merges the audit's pending person ids into its person index
// (access_audit_person_ids), and removes the company sets credentials were moved off once no cache
// can still hold them. It runs at start and then every hour in each instance; an
// advisory lock lets one instance at a time work, and deletions go in bounded batches,
// each its own short transaction, so neither requests nor imports wait on a long one.

import type { Database, Queryable } from '../db/engines/database.js';
import { pruneChanges } from '../db/feed/upkeep.js';
import { deleteExpiredAuditEntries, mergeAuditPersonIndex } from '../db/stores/accessAudit.js';
import { removeReplacedCompanySets } from '../db/stores/credentials.js';
import { withHousekeepingLock } from '../db/stores/housekeeping.js';
import type { Logger } from '../observability/logger.js';

export const HOUSEKEEPING_INTERVAL_MS = 3_600_000;
export const AUDIT_DELETE_BATCH = 5_000;
export const CHANGES_DELETE_BATCH = 10_000;
/**
 * A replaced company set is kept this long: longer than the longest CREDENTIAL_CACHE_MS
 * (one hour) of any instance, so an instance still holding the old set reads it whole.
 */
export const REPLACED_SET_KEEP_MS = 2 * 3_600_000;

export interface HousekeepingResult {
  auditEntriesDeleted: number;
  /** Pending-list pages of the audit's person index merged into it. */
  auditIndexPagesMerged: number;
  companySetsRemoved: number;
  changesPruned: number;
  /** Another instance held the lock for a step. */
  skipped: boolean;
}

export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly auditRetentionDays: number,
    private readonly changesRetentionMs: number,
  ) {}

  /** Runs now (in the background) and then every interval. */
  start(intervalMs = HOUSEKEEPING_INTERVAL_MS): void {
    const tick = () => {
      if (this.closed) return;
      this.running = this.runOnce().catch((error) => this.logger.warn({ err: error }, 'housekeeping failed; it runs again within the hour'));
    };
    tick();
    this.timer = setInterval(tick, intervalMs).unref();
  }

  async runOnce(): Promise<HousekeepingResult> {
    const result: HousekeepingResult = { auditEntriesDeleted: 0, auditIndexPagesMerged: 0, companySetsRemoved: 0, changesPruned: 0, skipped: false };
    const audit = await this.inBatches((tx) => deleteExpiredAuditEntries(tx, this.auditRetentionDays, AUDIT_DELETE_BATCH), AUDIT_DELETE_BATCH);
    result.auditEntriesDeleted = audit.done;
    const changes = await this.inBatches((tx) => pruneChanges(tx, this.changesRetentionMs, CHANGES_DELETE_BATCH), CHANGES_DELETE_BATCH);
    result.changesPruned = changes.done;
    if (audit.skipped || changes.skipped) result.skipped = true;
    const merged = await withHousekeepingLock(this.db, mergeAuditPersonIndex);
    if (merged === undefined) result.skipped = true;
    else result.auditIndexPagesMerged = merged;
    const removed = await withHousekeepingLock(this.db, (tx) => removeReplacedCompanySets(tx, REPLACED_SET_KEEP_MS));
    if (removed === undefined) result.skipped = true;
    else result.companySetsRemoved = removed;
    if (result.auditEntriesDeleted || result.auditIndexPagesMerged || result.companySetsRemoved || result.changesPruned)
      this.logger.info(result, 'housekeeping');
    return result;
  }

  /** `step` again while it deletes a whole `batch`: a backlog (retention shortened, or the first run in a while) goes batch by batch, with other work let in between. */
  private async inBatches(step: (tx: Queryable) => Promise<number>, batch: number): Promise<{ done: number; skipped: boolean }> {
    let done = 0;
    for (;;) {
      if (this.closed) return { done, skipped: false };
      const deleted = await withHousekeepingLock(this.db, step);
      if (deleted === undefined) return { done, skipped: true };
      done += deleted;
      if (deleted < batch) return { done, skipped: false };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops the timer and waits for a run in progress (which stops after its current batch). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }
}
