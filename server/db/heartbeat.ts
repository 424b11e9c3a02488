// The heartbeat that makes asOf honest on a replica (migration 002, decision 0016). The
// primary commits the instant its heartbeat statement started; a standby replays commits in
// the primary's WAL order, so a snapshot there that holds a heartbeat holds every change
// committed on the primary before that instant. An answer read on a replica reads the
// heartbeat in its own statement, and its asOf is that instant, not the standby's clock.
import type { Database, Queryable, Session } from './database.js';
import { AS_OF } from './personJson.js';

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

/** A read statement as a replica runs it: its asOf (personJson.ts) is the heartbeat it holds. */
export function replicaStatement(sql: string): string {
  let text = onReplica.get(sql);
  if (text === undefined) onReplica.set(sql, (text = sql.includes(AS_OF) ? sql.replaceAll(AS_OF, REPLICA_AS_OF) : sql));
  return text;
}

/** How often each instance reading from replicas beats: the granularity of a replica's asOf. */
export const HEARTBEAT_INTERVAL_MS = 200;

/**
 * This instance's heartbeat: a statement every interval on a connection of its own, so it
 * never waits behind the requests' pool. One at a time: a slow primary is not piled on.
 */
export class Heartbeat {
  private session: Session | undefined;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly primary: Database,
    private readonly intervalMs = HEARTBEAT_INTERVAL_MS,
  ) {}

  start(): void {
    // (A failed heartbeat is simply tried again on the next interval.)
    const run = () => void this.tick().catch(() => {});
    this.timer = setInterval(run, this.intervalMs).unref();
    run();
  }

  /** One heartbeat now (unless one is under way); resolves when it is committed, rejects if it failed. */
  tick(): Promise<void> {
    this.beating ??= this.beatOnce().finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.beating?.catch(() => {});
    await this.session?.close().catch(() => {});
    this.session = undefined;
  }

  private async beatOnce(): Promise<void> {
    if (this.closed) return;
    try {
      this.session ??= await this.primary.session!();
      await beat(this.session);
    } catch (error) {
      const lost = this.session;
      this.session = undefined;
      await lost?.close().catch(() => {});
      throw error;
    }
  }
}
