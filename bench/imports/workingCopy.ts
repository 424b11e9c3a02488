// Each application of a change or churn file, and the searches with the webhook deliveries,
// run on a copy of the bench database made anew for it (copyDatabase), never on the bench
// database itself. A file and its inverse restore the rows but not the pages: the indexes
// keep the splits and the free space the file's rows left, so each cycle slowed the next (a
// floor's three measurements rose by a fifth within one turn, the second turn's churn file
// ran a fifth slower than the first's, and each run began from the pages the runs before it
// had left). A copy of the same files gives every application, in every run, the same bytes
// to start from; its pages are read into the cache before anything is measured on it.
import type { Queryable } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { copyDatabase, recreateDatabase } from '../dataset/build.js';
import { prewarm } from '../prewarm.js';
import { round } from '../stats.js';

export interface WorkingCopy {
  databaseUrl: string;
  db: Queryable;
  /** Whether its pages were read into the cache (false where pg_prewarm is unavailable). */
  prewarmed: boolean;
  /** Seconds the copy and its prewarm took (not part of any measurement). */
  seconds: number;
}

/** The copy's URL: the bench database's, its name ending in `_turn`. */
export function copyUrlOf(benchUrl: string): string {
  const url = new URL(benchUrl);
  url.pathname = `${url.pathname}_turn`;
  return url.toString();
}

/**
 * `work` on a fresh copy of the bench database, dropped after. No session may be connected
 * to the bench database meanwhile; a copy that a stopped run left is replaced by the next.
 */
export async function onWorkingCopy<T>(benchUrl: string, work: (copy: WorkingCopy) => Promise<T>): Promise<T> {
  const started = performance.now();
  const databaseUrl = copyUrlOf(benchUrl);
  await copyDatabase(benchUrl, databaseUrl);
  const db = await openDatabase({ databaseUrl, poolMax: 4 });
  try {
    const prewarmed = await prewarm(db);
    return await work({ databaseUrl, db, prewarmed, seconds: round((performance.now() - started) / 1000, 1) });
  } finally {
    await db.close();
    await recreateDatabase(databaseUrl, false);
  }
}
