// An import run refuses to start while another client is connected to its database: a
// service or script left running there writes beside the measurements (its feed clock,
// its audit shipping) and its webhook worker claims the bench's endpoint. On 2026-11-29 one
// such process, idle through a whole run, took the last step's deliveries and refused to
// post them to 127.0.0.1, and the run ended with nothing written.
import type { Queryable } from '../../server/db/engines/database.js';

interface Session {
  pid: number;
  application: string;
  client: string | null;
  since: Date;
}

/** How long sessions just closed (the dataset check's, say) are given to leave. */
const LEAVING_MS = 3_000;

const otherSessions = (db: Queryable) =>
  db.query<Session>(
    `SELECT pid, application_name AS application, client_addr::text AS client, backend_start AS since
       FROM pg_stat_activity
      WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
      ORDER BY backend_start`,
  );

/** Throws, naming each, if a client other than this one is still connected to the database `db` opens after LEAVING_MS. */
export async function refuseOtherSessions(db: Queryable, leavingMs = LEAVING_MS): Promise<void> {
  const deadline = Date.now() + leavingMs;
  let sessions = await otherSessions(db);
  while (sessions.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    sessions = await otherSessions(db);
  }
  if (!sessions.length) return;
  const [{ name }] = (await db.query<{ name: string }>('SELECT current_database() AS name')) as [{ name: string }];
  const each = sessions.map(
    (s) => `pid ${s.pid} since ${s.since.toISOString()}${s.application ? ` (${s.application})` : ''}${s.client ? ` from ${s.client}` : ''}`,
  );
  throw new Error(
    `${sessions.length} other session(s) connected to ${name}: ${each.join('; ')}. A service or script left running there would write and claim ` +
      'webhook deliveries beside the measurements; stop it (or SELECT pg_terminate_backend(pid)) and run again',
  );
}
