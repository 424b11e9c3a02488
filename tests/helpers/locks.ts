// Makes PostgreSQL slow for real: a transaction holding an exclusive lock on a table makes
// every statement that reads it wait, exactly like a long migration or a stuck batch job.
import pg from 'pg';

export async function lockTable(databaseUrl: string, table: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/** Waits until some other session is waiting on a lock, i.e. the slow request is in the database. */
export async function untilSomeoneWaitsForALock(databaseUrl: string, timeoutMs = 5_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      if (rows[0].n > 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('no session started waiting for the lock');
  } finally {
    await client.end();
  }
}
