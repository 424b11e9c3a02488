// The one lock every writer of source data holds for its whole transaction (lock_data_writers(),
// db/derived/upkeep.sql): imports, erasure and credential company changes queue behind each other.
// Take it before any row lock, so that two writers never hold locks the other waits for.
import type { Queryable } from '../engines/database.js';

export async function lockDataWriters(tx: Queryable): Promise<void> {
  await tx.query('SELECT lock_data_writers()');
}
