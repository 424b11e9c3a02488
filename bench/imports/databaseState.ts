// The state a database is brought to before each import measurement, so that two runs
// measure the same thing (issue 59: one change file took 7.4 s in one run and 18.0 s in the
// next, on the same code, after autovacuum and an earlier run's dead rows): its tables'
// autovacuum off for the whole run (so no worker starts on a freshly written table in the
// middle of a file), then before each measurement VACUUM (ANALYZE), no autovacuum worker
// left on the database, and a CHECKPOINT (so each file pays its own full-page images from
// the same point). What was found is kept with the row.
import type { Queryable } from '../../server/db/engines/database.js';
import { round } from '../stats.js';

export interface DatabaseState {
  /** VACUUM (ANALYZE) of the whole database just before. */
  vacuumedAndAnalyzed: boolean;
  /** The run's tables have autovacuum off (reloptions), and no autovacuum worker was on the database when the measurement began. */
  autovacuumIdle: boolean;
  checkpointed: boolean;
  /** Dead row versions left in the public tables after the VACUUM (pg_stat_user_tables). */
  deadRows: number;
  /** Seconds the preparation took (not part of any measurement). */
  seconds: number;
}

const publicTables = `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables WHERE schemaname = 'public' ORDER BY relname`;

/**
 * Turns autovacuum off (`off` true) on every table of the database, or back to the
 * server's default; `ALTER TABLE ... SET` is kept in the catalog, so a run stopped
 * half-way leaves it off until the next run's end turns it back on.
 */
export async function setAutovacuum(db: Queryable, off: boolean): Promise<void> {
  const tables = await db.query<{ name: string }>(publicTables);
  const options = 'autovacuum_enabled, toast.autovacuum_enabled';
  for (const { name } of tables) {
    await db.query(off ? `ALTER TABLE ${name} SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)` : `ALTER TABLE ${name} RESET (${options})`);
  }
}

const AUTOVACUUM_WAIT_MS = 120_000;

/** Brings the database to the stated state (above) and says what it found. */
export async function settle(db: Queryable): Promise<DatabaseState> {
  const started = performance.now();
  // (Tables an import created since the last call, as the initial load's database gets, too.)
  await setAutovacuum(db, true);
  await db.query('VACUUM (ANALYZE)');
  const autovacuumIdle = await autovacuumGone(db, AUTOVACUUM_WAIT_MS);
  const checkpointed = await db.query('CHECKPOINT').then(
    () => true,
    () => false,
  );
  const [dead] = await db.query<{ n: string }>("SELECT coalesce(sum(n_dead_tup), 0)::text AS n FROM pg_stat_user_tables WHERE schemaname = 'public'");
  return { vacuumedAndAnalyzed: true, autovacuumIdle, checkpointed, deadRows: Number(dead?.n ?? 0), seconds: round((performance.now() - started) / 1000, 1) };
}

/** Whether, within `waitMs`, no autovacuum worker is on this database. */
async function autovacuumGone(db: Queryable, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const [row] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND datname = current_database()",
    );
    if (!row?.n) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The state as the report says it: "vacuumed and analysed, autovacuum idle, checkpoint; 0 dead rows". */
export function describeState(state: DatabaseState | undefined): string {
  if (!state) return 'as left by the file before';
  const parts = [
    state.vacuumedAndAnalyzed ? 'vacuumed and analysed' : 'not vacuumed',
    state.autovacuumIdle ? 'autovacuum idle' : 'an autovacuum worker running',
    state.checkpointed ? 'checkpoint done' : 'no checkpoint (not allowed)',
  ];
  return `${parts.join(', ')}; ${state.deadRows.toLocaleString('en-US')} dead rows`;
}
