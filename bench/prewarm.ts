// A database measured as a long-running server finds it: every table and index read once
// (pg_prewarm). Without it a measurement after a phase that wrote gigabytes elsewhere (the
// import bench's initial load) reads its pages from disk, and times the disk, not the work.
import type { Queryable } from '../server/db/engines/database.js';

/** False where pg_prewarm is unavailable. A standby cannot create the extension: it has it once its primary does. */
export async function prewarm(db: Queryable, { createExtension = true } = {}): Promise<boolean> {
  try {
    if (createExtension) await db.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    await db.query(`SELECT pg_prewarm(c.oid) FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')`);
    return true;
  } catch {
    return false;
  }
}
