// An import stopped by its signal (SIGINT, SIGTERM to the command) should not wait for the
// statement under way, which on a large file can run for minutes: on PostgreSQL that
// statement is cancelled from another connection, the transaction fails and rolls back.
// (PGlite runs each statement in this thread: the import stops after it.)
import type { Database, Transaction } from '../engines/database.js';

/** Cancels the transaction's statement under way when `signal` aborts, until the returned function is called. */
export async function cancelOnAbort(db: Database, tx: Transaction, signal: AbortSignal | undefined): Promise<() => void> {
  if (!signal || db.kind !== 'postgres') return () => {};
  const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const cancel = () => {
    db.query('SELECT pg_cancel_backend($1)', [row!.pid]).catch(() => {});
  };
  signal.addEventListener('abort', cancel, { once: true });
  return () => signal.removeEventListener('abort', cancel);
}
