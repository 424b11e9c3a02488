// When each credential was last used, for `npm run credentials -- list`. A request only
// notes the time in memory; one statement a minute writes every credential's latest use
// (so at most one write per credential per minute per instance, off the request path).
// A failed write is logged and retried with the next one; it never fails a request.

import type { Queryable } from '../db/engines/database.js';
import { type CredentialUse, recordCredentialUse } from '../db/stores/credentials.js';
import type { Credential } from '../domain/credentials.js';
import type { Logger } from '../observability/logger.js';

export const LAST_USE_INTERVAL_MS = 60_000;

export class LastUseRecorder {
  private pending = new Map<string, CredentialUse>();
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
    intervalMs = LAST_USE_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs).unref();
  }

  /** Notes a use at `now`; synchronous and cannot fail. */
  record(credential: Credential, now = Date.now()): void {
    let use = this.pending.get(credential.id);
    if (!use) this.pending.set(credential.id, (use = { id: credential.id }));
    if (credential.byPreviousToken) use.previous = now;
    else use.current = now;
  }

  /** Writes what was noted since the last write (one statement). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    if (!this.pending.size) return;
    const uses = [...this.pending.values()];
    this.pending = new Map();
    try {
      await recordCredentialUse(this.db, uses);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not record credential last use; retrying with the next write');
      // Keep them for the next write, unless newer uses were noted meanwhile.
      for (const use of uses) {
        const newer = this.pending.get(use.id);
        if (!newer) this.pending.set(use.id, use);
        else {
          newer.current ??= use.current;
          newer.previous ??= use.previous;
        }
      }
    }
  }
}
