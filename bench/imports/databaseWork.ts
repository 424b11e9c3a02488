// What an import made the database do, read off the server around it: the WAL it wrote
// (what a replica must replay), how many full-page images that WAL held (the first change
// of a page after a checkpoint writes the whole page: what the number of distinct pages
// a file touches costs, and so what the database's size adds to a change file), and the
// name-piece entries it inserted or deleted (server/db/derived), the derived data's
// largest part of a change file's work.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export interface DatabaseWork {
  walMb: number;
  /** Whole pages written to the WAL (pg_stat_wal.wal_fpi, for the whole cluster). */
  fullPageImages: number;
  /** Entries inserted into or deleted from last_name_pieces and first_name_pieces. */
  pieceEntries: number;
}

interface Reading {
  lsn: string;
  fullPageImages: number;
  entries: number;
}

/** `run`'s result and the database's work meanwhile (nothing else should write to the cluster). */
export async function withDatabaseWork<T>(databaseUrl: string, run: () => Promise<T>): Promise<[T, DatabaseWork]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const before = await read(client);
    const result = await run();
    // A finished import's backend hands its table and WAL counts to the statistics as it exits.
    await sleep(1000);
    const after = await read(client);
    const [{ bytes }] = (await client.query('SELECT pg_wal_lsn_diff($1, $2)::float8 AS bytes', [after.lsn, before.lsn])).rows as [{ bytes: number }];
    return [
      result,
      { walMb: Math.round(bytes / 1e6), fullPageImages: after.fullPageImages - before.fullPageImages, pieceEntries: after.entries - before.entries },
    ];
  } finally {
    await client.end();
  }
}

async function read(client: pg.Client): Promise<Reading> {
  await client.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ lsn: string; fpi: string; entries: string }>(`
    SELECT pg_current_wal_lsn()::text AS lsn,
           (SELECT wal_fpi FROM pg_stat_wal)::text AS fpi,
           (SELECT coalesce(sum(n_tup_ins + n_tup_del), 0) FROM pg_stat_user_tables
             WHERE relname IN ('last_name_pieces', 'first_name_pieces'))::text AS entries`);
  return { lsn: rows[0]!.lsn, fullPageImages: Number(rows[0]!.fpi), entries: Number(rows[0]!.entries) };
}
