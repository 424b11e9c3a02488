// The WAL an import writes and the checkpoints that WAL sets off, taken around it: a change
// file's cost is mostly its full-page images (docs/performance.md), and once its WAL passes
// max_wal_size each checkpoint it forces writes and syncs pages while searches run beside it.
// Both counters are the server's, so they are read only around a measured file.
import type { Queryable } from '../../server/db/engines/database.js';
import { round } from '../stats.js';

export interface WalWritten {
  /** WAL the server wrote while the file applied, MB. */
  walMb: number;
  /** Checkpoints the server began meanwhile (timed or requested). */
  checkpoints: number;
}

interface Position {
  lsn: string;
  checkpoints: number;
}

async function position(db: Queryable): Promise<Position> {
  // (PostgreSQL 17 moved the checkpoint counters to pg_stat_checkpointer.)
  const [{ v }] = (await db.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v")) as [{ v: number }];
  const counters =
    v >= 170000 ? 'SELECT num_timed + num_requested FROM pg_stat_checkpointer' : 'SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter';
  const [row] = (await db.query<{ lsn: string; checkpoints: string }>(`SELECT pg_current_wal_lsn()::text AS lsn, (${counters})::text AS checkpoints`)) as [
    { lsn: string; checkpoints: string },
  ];
  return { lsn: row.lsn, checkpoints: Number(row.checkpoints) };
}

/** `work`'s result with the WAL written and the checkpoints begun while it ran. */
export async function withWalWritten<T extends object>(db: Queryable, work: () => Promise<T>): Promise<T & WalWritten> {
  const before = await position(db);
  const result = await work();
  // (The checkpointer counts a checkpoint once it ends; the counters are read in a new snapshot.)
  const after = await position(db);
  const [{ bytes }] = (await db.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text AS bytes', [after.lsn, before.lsn])) as [
    { bytes: string },
  ];
  return Object.assign(result, { walMb: round(Number(bytes) / 1e6, 1), checkpoints: after.checkpoints - before.checkpoints });
}
