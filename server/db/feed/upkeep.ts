// The change feed's two periodic writes (docs/decisions/0022-change-feed.md): pruning what
// is older than the retention, and recording the states that change with time alone
// (record_time_changes(), server/db/derived/upkeep.sql).
import type { Database, Queryable } from '../engines/database.js';

/**
 * Deletes the oldest changes, at most `batch`, recorded more than `retentionMs` ago, and
 * raises the pruned mark to the last one deleted (a cursor below it is answered 410).
 * changed_at follows position, so they are a prefix of the feed: the batch reads the
 * feed's first rows by its key, never the whole table. Returns how many went.
 */
export async function pruneChanges(tx: Queryable, retentionMs: number, batch: number): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM changes WHERE position = ANY (ARRAY(
         SELECT position FROM (SELECT position, changed_at FROM changes ORDER BY position LIMIT $2) first
          WHERE changed_at < now() - $1 * interval '1 millisecond'))
       RETURNING position
     ),
     mark AS (UPDATE change_feed_pruned SET through = greatest(through, (SELECT max(position) FROM gone)) WHERE EXISTS (SELECT 1 FROM gone))
     SELECT count(*)::int AS n FROM gone`,
    [retentionMs, batch],
  );
  return row!.n;
}

/** Whether an invitation has expired since the last time states were recorded: one probe of the expiry index, no lock. */
async function timeChangesDue(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ due: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM employees e, change_feed_head h
                     WHERE e.invitation_status = 'pending' AND e.invitation_expires_at > h.time_states_through
                       AND e.invitation_expires_at <= clock_timestamp()) AS due`,
  );
  return row!.due;
}

/**
 * Records the invitations expired since the last call as employee.updated changes, if any
 * are due and no other writer holds the writers' lock (an import under way: the next call
 * records them). Returns how many, or undefined when it had to leave them.
 */
export async function recordTimeChanges(db: Database): Promise<number | undefined> {
  if (!(await timeChangesDue(db))) return 0;
  return db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>('SELECT try_lock_data_writers() AS locked');
    if (!lock!.locked) return undefined;
    const [row] = await tx.query<{ n: number }>('SELECT record_time_changes()::int AS n');
    return row!.n;
  });
}
