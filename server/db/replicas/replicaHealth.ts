// What each instance knows of its replicas, learnt off the request path: every
// CHECK_INTERVAL_MS each replica is asked, on a connection of its own (a saturated pool
// must not look like a dead replica), how old the heartbeat it has replayed is
// (heartbeat.ts). A replica that does not answer within REPLICA_CHECK_TIMEOUT_MS, or fails, is
// down until it answers again. Between checks the known age grows with the time passed,
// so a replica is never taken for fresher than it was.
import type { Database, Session } from '../engines/database.js';
import { DatabaseState } from './databaseState.js';
import { walPosition } from './walPosition.js';

export const CHECK_INTERVAL_MS = 250;

export class ReplicaHealth extends DatabaseState {
  /** The heartbeat it held at its last check (ms since the epoch, the primary's clock). */
  heartbeatAt: number | undefined;
  /** How far it is known to have replayed (walPosition.ts): at its last check, or a read since. */
  position = 0n;
  private ageAtCheck = Number.POSITIVE_INFINITY;
  /** performance.now() when that check was answered. */
  private checkedAt = 0;
  private session: Session | undefined;
  /** The check under way: one at a time, so a replica that hangs is not piled on. */
  private checking: Promise<void> | undefined;
  private closed = false;

  constructor(
    name: string,
    readonly db: Database,
    private readonly timeoutMs: number,
    onChange: (up: boolean, error?: unknown) => void = () => {},
  ) {
    // Unknown until its first check answers.
    super(name, false, onChange);
  }

  /** The heartbeat's age now, in milliseconds: as checked, plus the time since. */
  ageMs(now = performance.now()): number {
    return this.ageAtCheck + (now - this.checkedAt);
  }

  /** Checks now unless a check is under way; resolves within the timeout whatever the replica does. */
  check(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.checking ??= this.checkOnce().finally(() => {
      this.checking = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.markDown(new Error(`no answer within ${this.timeoutMs} ms`));
        resolve();
      }, this.timeoutMs);
    });
    return Promise.race([this.checking, late]).finally(() => clearTimeout(timer));
  }

  /** A position the replica answered at (READ_POSITION): it has replayed at least that far. */
  learn(position: string | null | undefined): void {
    if (!position) return;
    const at = walPosition(position);
    if (at > this.position) this.position = at;
  }

  async close(): Promise<void> {
    this.closed = true;
    // (A check stuck on a frozen replica is not waited for: its connection is dropped.)
    const session = this.session;
    this.session = undefined;
    void session?.close().catch(() => {});
  }

  private async checkOnce(): Promise<void> {
    try {
      this.session ??= await this.db.session!();
      const [row] = await this.session.query<{ age_ms: number; at_ms: number; position: string | null }>(
        `SELECT (extract(epoch FROM clock_timestamp() - at) * 1000)::float8 AS age_ms, (extract(epoch FROM at) * 1000)::float8 AS at_ms,
                pg_last_wal_replay_lsn()::text AS position
           FROM replica_heartbeat`,
      );
      if (!row) throw new Error('replica_heartbeat has no row (not migrated yet?)');
      this.ageAtCheck = Math.max(0, row.age_ms);
      this.heartbeatAt = row.at_ms;
      // (NULL: not a standby, promoted perhaps; it then holds everything it was sent.)
      this.learn(row.position);
      this.checkedAt = performance.now();
      if (!this.closed) this.markUp();
    } catch (error) {
      const lost = this.session;
      this.session = undefined;
      void lost?.close().catch(() => {});
      this.markDown(error);
    }
  }
}
