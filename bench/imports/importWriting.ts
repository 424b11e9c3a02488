// When an import's transaction is open on the database: a connection of the import's
// (application_name lookup-import, server/cli/database.ts) with a transaction begun. The
// searches count the service's throughput during a change from then (searches.ts): before
// it the import's process is starting and reading its file, and the database does no work
// for it, so a throughput counted from the process's start is partly the idle one.
import type { Queryable } from '../../server/db/engines/database.js';

const POLL_MS = 10;

/** Resolves true once an import's transaction is seen open, or false if `ended` settles first. */
export async function whenImportWrites(db: Queryable, ended: Promise<unknown>): Promise<boolean> {
  let over = false;
  ended.finally(() => (over = true)).catch(() => {});
  while (!over) {
    const [open] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'lookup-import' AND xact_start IS NOT NULL",
    );
    if (open?.n) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}
