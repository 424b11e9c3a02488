// The heartbeat that makes asOf honest on a replica (migration 002, decision 0016). The
// primary commits the instant its heartbeat statement started; a standby replays commits in
// the primary's WAL order, so a snapshot there that holds a heartbeat holds every change
// committed on the primary before that instant. An answer read on a replica reads the
// heartbeat in its own statement, and its asOf is that instant, not the standby's clock.
import type { Database, Queryable, Session } from '../engines/database.js';
import { AS_OF } from '../reads/employeeJson.js';
import { DatabaseState } from './databaseState.js';

/**
 * One heartbeat, on the primary. statement_timestamp(): every change committed before it
 * was in the WAL before this statement began, so before its commit. greatest(): instances
 * beat concurrently, and one that waited on another's row lock must not move it back.
 */
export async function beat(primary: Queryable): Promise<void> {
  await primary.query('UPDATE replica_heartbeat SET at = greatest(at, statement_timestamp())');
}

/** asOf on a replica: the heartbeat the statement's snapshot holds (to the millisecond, never later). */
export const REPLICA_AS_OF = `date_trunc('milliseconds', (SELECT at FROM replica_heartbeat))`;

const onReplica = new Map<string, string>();

/** A read statement as a replica runs it: its asOf (reads/employeeJson.ts) is the heartbeat it holds. */
export function replicaStatement(sql: string): string {
  let text = onReplica.get(sql);
  if (text === undefined) onReplica.set(sql, (text = sql.includes(AS_OF) ? sql.replaceAll(AS_OF, REPLICA_AS_OF) : sql));
  return text;
}

/** How often each instance reading from replicas beats: the granularity of a replica's asOf. */
export const HEARTBEAT_INTERVAL_MS = 200;
/** A heartbeat not committed within this is taken for a primary that is down (or hangs). */
export const HEARTBEAT_TIMEOUT_MS = 1_000;

/**
 * This instance's heartbeat: a statement every interval on a connection of its own, so it
 * never waits behind the requests' pool; one at a time, so a slow primary is not piled on.
 * It is also how the instance knows the primary is up: the last heartbeat was committed,
 * and none has been waiting longer than HEARTBEAT_TIMEOUT_MS.
 */
export class Heartbeat extends DatabaseState {
  private session: Session | undefined;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private beatStarted = 0;
  private closed = false;

  constructor(
    /** The primary, whose state this is. */
    readonly db: Database,
    onChange: (up: boolean, error?: unknown) => void = () => {},
    private readonly intervalMs = HEARTBEAT_INTERVAL_MS,
  ) {
    // Up at start: the migrations just ran on it.
    super('primary', true, onChange);
  }

  start(): void {
    // (A failed heartbeat is tried again on the next interval.)
    const run = () => void this.tick().catch(() => {});
    this.timer = setInterval(run, this.intervalMs).unref();
    run();
  }

  /** One heartbeat now (unless one is under way); resolves when it is committed, rejects if it failed. */
  tick(): Promise<void> {
    if (this.beating && performance.now() - this.beatStarted > HEARTBEAT_TIMEOUT_MS) this.markDown(new Error('heartbeat not committed in time'));
    if (!this.beating) {
      this.beatStarted = performance.now();
      this.beating = this.beatOnce().finally(() => {
        this.beating = undefined;
      });
    }
    return this.beating;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    // (A heartbeat stuck on a primary that hangs is not waited for.)
    const session = this.session;
    this.session = undefined;
    void session?.close().catch(() => {});
  }

  private async beatOnce(): Promise<void> {
    if (this.closed) return;
    try {
      this.session ??= await this.db.session!();
      await beat(this.session);
      if (!this.closed) this.markUp();
    } catch (error) {
      const lost = this.session;
      this.session = undefined;
      void lost?.close().catch(() => {});
      if (!this.closed) this.markDown(error);
      throw error;
    }
  }
}
