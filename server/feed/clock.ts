// The change feed's clock (docs/decisions/0022-change-feed.md): a membership status changes
// when a pending invitation expires, with no write at all (decision 0008). Every second each
// instance asks whether one has expired since the feed last looked (one index probe) and,
// if so, records it as employee.updated; the writers' lock lets one instance do it, and
// an import under way makes it come back a second later rather than wait.

import type { Database } from '../db/engines/database.js';
import { recordTimeChanges } from '../db/feed/upkeep.js';
import type { Logger } from '../observability/logger.js';

export const FEED_CLOCK_INTERVAL_MS = 1_000;

export class FeedClock {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Failing since the last warning: a database outage makes one line, not one a second. */
  private failing = false;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
  ) {}

  start(intervalMs = FEED_CLOCK_INTERVAL_MS): void {
    this.timer = setInterval(() => {
      if (this.closed) return;
      // One tick at a time: a slow one is not stacked on.
      this.running = this.running.then(() => this.tick());
    }, intervalMs).unref();
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    try {
      const recorded = await recordTimeChanges(this.db);
      if (recorded) this.logger.debug({ recorded }, 'change feed: invitations expired');
      if (this.failing) this.logger.info('change feed clock works again');
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.logger.warn({ err: error }, 'change feed clock failed; it tries again every second');
      this.failing = true;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }
}
