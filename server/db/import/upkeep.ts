// How an import keeps the derived data (server/db/derived) equal to a rebuild. Into a
// database with no linked employment (an initial load), whose derived data is therefore
// empty, the per-statement upkeep stands aside (`lookup.bulk`, transaction-local,
// db/derived/upkeep.sql) and every structure is filled once, set-based, after the employments are
// written. Otherwise the per-statement upkeep follows each write, in proportion to the
// change. Either way everything is in the import's one transaction, under the writers'
// lock: readers see before or after, and the choice cannot go stale while the import runs.
import type { Transaction } from '../engines/database.js';

export type Upkeep = 'fill' | 'per-statement';

/** Chooses the upkeep, before the import writes anything; 'fill' turns the per-statement upkeep off. */
export async function beginUpkeep(tx: Transaction): Promise<Upkeep> {
  const [row] = await tx.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM employees WHERE person_id IS NOT NULL) AS empty');
  if (!row!.empty) return 'per-statement';
  await tx.query("SELECT set_config('lookup.bulk', 'on', true)");
  return 'fill';
}

/** After the employments are written: fills the derived data if the upkeep was turned off, and turns it back on. */
export async function finishUpkeep(tx: Transaction, upkeep: Upkeep): Promise<void> {
  if (upkeep !== 'fill') return;
  await tx.query('SELECT fill_derived_data()');
  await tx.query("SELECT set_config('lookup.bulk', 'off', true)");
}
