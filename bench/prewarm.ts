// A database measured as a server that has been running finds it: every table and index
// read once with PostgreSQL's own pg_prewarm, so shared buffers hold what fits of them and
// the operating system's cache the rest. Without it a measurement made after another phase
// has written gigabytes elsewhere (the import bench's initial load) reads its pages from
// disk, and times the disk rather than the work.
import type { Queryable } from '../server/db/engines/database.js';

/**
 * Reads every table and index of the public schema; false where pg_prewarm is not
 * available. A standby cannot create the extension: it has it once its primary does
 * (`createExtension: false` there).
 */
export async function prewarm(db: Queryable, { createExtension = true } = {}): Promise<boolean> {
  try {
    if (createExtension) await db.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    await db.query(`SELECT pg_prewarm(c.oid) FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')`);
    return true;
  } catch {
    return false;
  }
}
