// The floor a whole-file load is held to (decision 0026): the file's rows written where
// they live in the empty database, as PostgreSQL would write them most cheaply there:
// `companies`, `persons` and `employees` copied in, then their indexes built and their keys
// added and checked, as an initial load does (server/db/import/deferredIndexes.ts),
// durably, but without the import's reading, checks, staging and resolving and without the
// derived data (which stands aside for the transaction). Timed in one transaction, then
// rolled back; the fastest of the times asked for (a floor is only ever slowed).
import pg from 'pg';
import type { Transaction } from '../../server/db/engines/database.js';
import { buildDeferredIndexes, deferIndexesIfEmpty } from '../../server/db/import/deferredIndexes.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { copyLine, storedEmploymentColumns } from '../../server/importing/storedRows.js';
import { round } from '../stats.js';
import { settle } from './databaseState.js';
import { copyChunks, storedRows } from './rawCopy.js';

/** Each takes about a quarter of the load's time: the fastest of two. */
export const LOADED_ALONE_TIMES = 2;

/** The fastest of `times` floors, each from the stated state, on the empty database `databaseUrl` names, and every one's seconds. */
export async function loadedRowsAlone(
  databaseUrl: string,
  records: Iterable<ImportRecord>,
  times = LOADED_ALONE_TIMES,
): Promise<{ seconds: number; each: number[] }> {
  // Rows are built first (the generator's cost is not the database's); the writes alone are timed.
  const companies: string[] = [];
  const { persons, employees } = storedRows(noting(records, (r) => r.type === 'company' && companies.push(copyLine([r.id, r.name]))));
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'lookup-bench-floor' });
  await client.connect();
  const tx = { query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows } as Transaction;
  try {
    const seconds: number[] = [];
    for (let i = 0; i < times; i++) {
      await settle(tx);
      seconds.push(round(await writeOnce(client, tx, { companies, persons, employees }), 2));
    }
    return { seconds: Math.min(...seconds), each: seconds };
  } finally {
    await client.end();
  }
}

function* noting<T>(items: Iterable<T>, note: (item: T) => unknown): Generator<T> {
  for (const item of items) {
    note(item);
    yield item;
  }
}

type Rows = Record<'companies' | 'persons' | 'employees', readonly string[]>;

/** `tx` runs its statements on `client` (the COPYs need the client itself). */
async function writeOnce(client: pg.Client, tx: Transaction, { companies, persons, employees }: Rows): Promise<number> {
  await client.query('BEGIN');
  try {
    // The derived data's upkeep and the change feed off for this transaction (server/db/derived/upkeep.sql).
    await client.query("SELECT set_config('lookup.bulk', 'on', true)");
    const started = performance.now();
    const deferred = await deferIndexesIfEmpty(tx);
    if (!deferred.length) throw new Error('the floor of a whole-file load needs an empty database');
    await copyChunks(client, 'companies (id, name)', [companies.join('')]);
    await copyChunks(client, 'persons (id, created_at, updated_at)', persons);
    await copyChunks(client, `employees (${storedEmploymentColumns.join(', ')})`, employees);
    await buildDeferredIndexes(tx, deferred);
    await client.query('SET CONSTRAINTS ALL IMMEDIATE');
    return (performance.now() - started) / 1000;
  } finally {
    await client.query('ROLLBACK');
  }
}
