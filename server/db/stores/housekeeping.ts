// Housekeeping runs in every instance; one advisory lock lets one instance at a time do a
// step, and the others skip it rather than queue behind it.
import type { Database, Queryable } from '../engines/database.js';

const HOUSEKEEPING_LOCK = 728303;

/** Runs `work` in a transaction holding the housekeeping lock; undefined when another instance holds it. */
export async function withHousekeepingLock<T>(db: Database, work: (tx: Queryable) => Promise<T>): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [HOUSEKEEPING_LOCK]);
    return lock!.locked ? work(tx) : undefined;
  });
}
