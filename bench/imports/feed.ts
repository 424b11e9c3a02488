// The change feed in the bench (docs/decisions/0022-change-feed.md), for the import rows to
// put beside each other: reading pages of 1,000 changes (the target: p99 < 50 ms
// at 1,000,000 people), and an import with the feed off, for the 1.25× budget of the feed
// on against off.
//
//   const reads = await measureFeedReads(databaseUrl);            // { p50Ms, p99Ms, ... }
//   const off = await withFeedOff(databaseUrl, () => runImportCli(databaseUrl, file, 'change file, feed off', records));
//
// withFeedOff disables the feed's triggers (an ALTER TABLE, which locks the tables against
// readers: the bench database only, never one a service reads) and enables them again
// however `work` ends. What an import writes meanwhile is not in the feed: the bench
// database's feed is then marked pruned through its head, as after a TRUNCATE, so nothing
// can follow it across the gap. A run killed meanwhile leaves them disabled: the next
// run's start turns them back on (enableFeedLeftOff).
import type { Queryable } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { SqlChangeFeed } from '../../server/db/feed/read.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { percentile, round } from '../stats.js';

/** The feed's triggers, by table (server/db/derived/upkeep.sql, "The change feed"). */
const FEED_TRIGGERS: Record<string, string[]> = {
  employees: ['employees_feed_inserted', 'employees_feed_updated', 'employees_feed_deleted', 'employees_feed_truncated'],
  persons: ['persons_feed_updated', 'persons_feed_deleted'],
  companies: ['companies_feed_deleted'],
};

export interface FeedReads {
  /** The company read (the one with the most changes) and how many it has. */
  companyId: string;
  companyChanges: number;
  limit: number;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Reads `samples` pages of `limit` changes of the company with the most changes, each
 * after a random place in its feed, through the service's own read (db/feed/read.ts), on
 * `databaseUrl`. A bench database built before the feed existed has none: its stored
 * employments are recorded first, as the initial load would have recorded them.
 */
export async function measureFeedReads(databaseUrl: string, options: { samples?: number; limit?: number } = {}): Promise<FeedReads> {
  const { samples = 200, limit = 1000 } = options;
  const db = await openDatabase({ databaseUrl });
  try {
    await migrate(db);
    await recordStoredEmploymentsIfEmpty(db);
    const [busiest] = await db.query<{ company_id: string; n: number; low: string; high: string }>(
      `SELECT company_id, count(*)::int AS n, min(position)::text AS low, max(position)::text AS high FROM changes GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
    );
    if (!busiest) throw new Error('the bench database holds no changes to read');
    const feed = new SqlChangeFeed(db);
    const low = BigInt(busiest.low) - 1n;
    const span = Number(BigInt(busiest.high) - low);
    // (A few reads first: the plan and the index's upper pages.)
    for (let i = 0; i < 5; i++) await feed.read(busiest.company_id, low, limit);
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const after = low + BigInt(Math.floor(Math.random() * Math.max(1, span - limit)));
      const started = performance.now();
      const read = await feed.read(busiest.company_id, after, limit);
      times.push(performance.now() - started);
      if ('pruned' in read) throw new Error('the bench database feed is pruned past the place read');
    }
    return {
      companyId: busiest.company_id,
      companyChanges: busiest.n,
      limit,
      samples,
      p50Ms: round(percentile(times, 0.5), 2),
      p99Ms: round(percentile(times, 0.99), 2),
      maxMs: round(Math.max(...times), 2),
    };
  } finally {
    await db.close();
  }
}

/** Runs `work` with the feed's triggers disabled on `databaseUrl` (the bench database only), and enables them again. */
export async function withFeedOff<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const db = await openDatabase({ databaseUrl });
  try {
    await setFeedTriggers(db, false);
    try {
      return await work();
    } finally {
      await setFeedTriggers(db, true);
      // Whatever `work` wrote is not in the feed: nobody may follow across it.
      await db.query('UPDATE change_feed_pruned SET through = (SELECT position FROM change_feed_head)');
    }
  } finally {
    await db.close();
  }
}

/**
 * Enables the feed's triggers where a run stopped inside withFeedOff left them disabled
 * (its `finally` does not run when the process is killed), marking the feed pruned as
 * withFeedOff does; says whether it had to.
 */
export async function enableFeedLeftOff(db: Queryable): Promise<boolean> {
  const names = Object.values(FEED_TRIGGERS).flat();
  const [off] = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = ANY($1::text[]) AND tgenabled = 'D'", [names]);
  if (!off?.n) return false;
  await setFeedTriggers(db, true);
  await db.query('UPDATE change_feed_pruned SET through = (SELECT position FROM change_feed_head)');
  return true;
}

async function setFeedTriggers(db: Queryable, enabled: boolean): Promise<void> {
  for (const [table, triggers] of Object.entries(FEED_TRIGGERS))
    for (const trigger of triggers) await db.query(`ALTER TABLE ${table} ${enabled ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
}

/** Records each stored employment as employee.created, if the feed is empty (a bench database built before migration 007). */
async function recordStoredEmploymentsIfEmpty(db: Queryable): Promise<void> {
  const [any] = await db.query('SELECT 1 FROM changes LIMIT 1');
  if (any) return;
  await db.query(`
    WITH base AS (SELECT position FROM change_feed_head FOR UPDATE),
    recorded AS (
      INSERT INTO changes (position, company_id, kind, employee_id, person_id, changed_at)
      SELECT (SELECT position FROM base) + row_number() OVER (ORDER BY company_id, id), company_id, 'employee.created', id, person_id, now() FROM employees
      RETURNING position)
    UPDATE change_feed_head SET position = coalesce((SELECT max(position) FROM recorded), position), at = greatest(at, now())`);
  await db.query('ANALYZE changes');
}
