// How an import reaches the stored rows its file touches. A file that touches a small share
// of a table probes it by key, one index lookup per key, so its cost follows the file; a
// file that touches a large share joins the table whole, one scan hashed, which is then
// cheaper than as many lookups. The planner would choose by its estimates of the staged
// keys, which for a change file are too high to keep it from scanning the stored tables: the
// choice is made here, once per import, from the file's size and the table's.
import type { Transaction } from '../engines/database.js';

export type Reach = 'probe' | 'join';

/** Below this share of the stored employments (records per stored row), a file probes. */
const PROBE_BELOW_SHARE = 1 / 20;

export async function chooseReach(tx: Transaction, records: number): Promise<Reach> {
  return reachFor(records, await storedEmployments(tx));
}

/** How `rows` staged rows reach `stored` stored ones. */
export function reachFor(rows: number, stored: number): Reach {
  return rows < stored * PROBE_BELOW_SHARE ? 'probe' : 'join';
}

/** About how many employments are stored (the planner's count, kept by ANALYZE and VACUUM). */
export async function storedEmployments(tx: Transaction): Promise<number> {
  const [row] = await tx.query<{ stored: number }>("SELECT greatest(reltuples, 0)::float8 AS stored FROM pg_class WHERE oid = 'employees'::regclass");
  return row?.stored ?? 0;
}

/**
 * `FROM`-clause SQL joining `alias`, the row of `table` whose `key` equals `outerKey` (or
 * nulls where none is), reached as chosen. (OFFSET 0 keeps the planner from flattening the
 * lookup into a join it may hash.)
 */
export function storedRow(reach: Reach, table: string, alias: string, key: string, outerKey: string): string {
  return reach === 'probe'
    ? `LEFT JOIN LATERAL (SELECT * FROM ${table} ${alias} WHERE ${alias}.${key} = ${outerKey} OFFSET 0) ${alias} ON true`
    : `LEFT JOIN ${table} ${alias} ON ${alias}.${key} = ${outerKey}`;
}
