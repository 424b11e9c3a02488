// Loads a generated dataset into a freshly migrated PostgreSQL database with COPY: one
// COPY stream per table, all fed at once from the single pass over the generator, into
// tables whose keys and indexes are lifted for the load and rebuilt after it.

import type { Writable } from 'node:stream';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { insertCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { liftKeysAndIndexes, restoreKeysAndIndexes, sameSchema, snapshotSchema } from './bulkSchema.js';
import { appendEmployment, appendPerson, type CopyBuffers, type CopyTable, copyTables, emptyBuffers } from './copyFormat.js';
import type { Dataset } from './generate.js';

export interface LoadResult {
  rows: Record<string, number>;
  totalRows: number;
  seconds: { copy: number; indexes: number; analyze: number; total: number };
  /** Rows per second over the whole load, index builds and ANALYZE included. */
  rowsPerSecond: number;
}

const tables = Object.keys(copyTables) as CopyTable[];
const pieceTables = ['last_name_pieces', 'first_name_pieces'];
/** People generated between two writes to the COPY streams. */
const CHUNK = 2_000;

export async function loadPostgres(databaseUrl: string, dataset: Dataset, log: (line: string) => void): Promise<LoadResult> {
  const started = Date.now();
  const db = await openDatabase({ databaseUrl, poolMax: 2 });
  await migrate(db);
  await db.query('INSERT INTO companies (id, name) SELECT * FROM unnest($1::text[], $2::text[])', [
    dataset.companies.map((c) => c.id),
    dataset.companies.map((c) => c.name),
  ]);

  const connect = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    // Sorts for index builds in memory, and no wait on the WAL flush per COPY batch.
    await client.query("SET maintenance_work_mem = '512MB'; SET synchronous_commit = off; SET max_parallel_maintenance_workers = 0");
    return client;
  };
  const admin = await connect();
  const before = await snapshotSchema(admin, tables);
  await liftKeysAndIndexes(admin, before);

  // The triggers that keep derived data (server/db/derived) would look up
  // every copied employment in a table with no indexes yet: off for the load, and the
  // derived data rebuilt in bulk afterwards.
  await admin.query('ALTER TABLE employees DISABLE TRIGGER USER');

  // Copy: one connection and one stream per table.
  const clients = await Promise.all(tables.map(connect));
  const streams: Record<string, Writable> = {};
  tables.forEach((t, i) => {
    streams[t] = clients[i]!.query(copyStreams.from(`COPY ${t} (${copyTables[t].join(', ')}) FROM STDIN`));
  });
  const finished = tables.map((t) => new Promise<void>((resolve, reject) => streams[t]!.on('finish', resolve).on('error', reject)));
  const rows = Object.fromEntries(tables.map((t) => [t, 0])) as Record<string, number>;

  let buffers = emptyBuffers();
  let people = 0;
  const flush = async (b: CopyBuffers) => {
    const waits: Promise<void>[] = [];
    for (const t of tables) {
      const lines = b[t];
      if (!lines.length) continue;
      rows[t]! += lines.length;
      if (!streams[t]!.write(lines.join(''))) waits.push(new Promise((resolve) => streams[t]!.once('drain', resolve)));
    }
    await Promise.all(waits);
  };
  let lastReport = Date.now();
  for (const entity of dataset.entities()) {
    if (entity.kind === 'person') {
      appendPerson(buffers, entity.person);
      people++;
    } else appendEmployment(buffers, entity.employment, null);
    if (buffers.employees.length >= CHUNK * 1.5) {
      await flush(buffers);
      buffers = emptyBuffers();
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        log(`  ${people.toLocaleString('en-US')} people copied (${Math.round((Date.now() - started) / 1000)} s)`);
      }
    }
  }
  await flush(buffers);
  for (const t of tables) streams[t]!.end();
  await Promise.all(finished);
  const copied = Date.now();
  log(
    `copied ${Object.values(rows)
      .reduce((a, b) => a + b, 0)
      .toLocaleString('en-US')} rows in ${((copied - started) / 1000).toFixed(1)} s; rebuilding keys and indexes`,
  );

  await restoreKeysAndIndexes([admin, clients[0]!], before, log);
  const after = await snapshotSchema(admin, tables);
  if (!sameSchema(before, after)) throw new Error('the schema after the bulk load differs from the migrated one');
  // The name pieces (server/db/derived) are filled in bulk too, and their keys built once after.
  const pieces = await snapshotSchema(admin, pieceTables);
  await liftKeysAndIndexes(admin, pieces);
  await admin.query('SELECT rebuild_derived_data()');
  await restoreKeysAndIndexes([admin, clients[0]!], pieces, log);
  if (!sameSchema(pieces, await snapshotSchema(admin, pieceTables))) throw new Error('the name pieces after the bulk load differ from the migrated schema');
  await admin.query('ALTER TABLE employees ENABLE TRIGGER USER');
  const indexed = Date.now();

  for (const c of dataset.credentials) await insertCredential(db, c.name, hashToken(c.token), c.companies);
  rows.companies = dataset.companies.length;
  rows.credentials = dataset.credentials.length;

  // VACUUM sets the visibility map (index-only scans) and hint bits, as autovacuum would
  // in a database that has been running; ANALYZE gives the planner its statistics.
  await admin.query('VACUUM (ANALYZE)');
  const done = Date.now();

  await Promise.all(clients.map((c) => c.end()));
  await admin.end();
  await db.close();
  const totalRows = Object.values(rows).reduce((a, b) => a + b, 0);
  const total = (done - started) / 1000;
  return {
    rows,
    totalRows,
    seconds: { copy: (copied - started) / 1000, indexes: (indexed - copied) / 1000, analyze: (done - indexed) / 1000, total },
    rowsPerSecond: Math.round(totalRows / total),
  };
}
