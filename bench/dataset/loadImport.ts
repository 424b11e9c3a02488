// Loads a generated dataset through the service's own import (importRecords), in chunks
// of people so that memory stays flat: the path for PGlite and for small scales.
import type { Database } from '../../server/db/engines/database.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { type ImportSummary, importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import type { Dataset } from './generate.js';
import type { LoadResult } from './loadPostgres.js';
import { employmentRecords, personRecords } from './toRecords.js';

const CHUNK_RECORDS = 20_000;

export async function loadThroughImport(db: Database, dataset: Dataset): Promise<LoadResult> {
  const started = Date.now();
  await migrate(db);
  const rows: Record<string, number> = {};
  const add = (summary: ImportSummary) => {
    for (const [type, outcomes] of Object.entries(summary)) if (typeof outcomes === 'object') rows[type] = (rows[type] ?? 0) + outcomes.added;
  };
  add(
    await importRecords(
      db,
      dataset.companies.map((c) => ({ type: 'company', id: c.id, name: c.name })),
      'US',
    ),
  );
  let chunk: ImportRecord[] = [];
  for (const entity of dataset.entities()) {
    chunk.push(...(entity.kind === 'person' ? personRecords(entity.person) : employmentRecords(entity.employment)));
    if (chunk.length >= CHUNK_RECORDS) {
      add(await importRecords(db, chunk, 'US'));
      chunk = [];
    }
  }
  chunk.push(...dataset.credentials.map((c): ImportRecord => ({ type: 'credential', name: c.name, token: c.token, companies: c.companies })));
  add(await importRecords(db, chunk, 'US'));
  const loaded = Date.now();
  await db.query('VACUUM (ANALYZE)');
  const done = Date.now();
  const totalRows = Object.values(rows).reduce((a, b) => a + b, 0);
  const total = (done - started) / 1000;
  return {
    rows,
    totalRows,
    seconds: { copy: (loaded - started) / 1000, indexes: 0, analyze: (done - loaded) / 1000, total },
    rowsPerSecond: Math.round(totalRows / total),
  };
}
