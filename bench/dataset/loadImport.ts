// Loads a generated dataset through the service's own import, as one file into an empty
// database: the import's initial-load path (rows first, indexes and derived data built
// once after them, server/db/import/deferredIndexes.ts), on PostgreSQL and PGlite alike.
// At 100,000 people it took 160 to 164 s where the bench's own COPY loader, since
// removed, took 149 to 158 s on the same busy host (docs/performance.md).
import type { Database } from '../../server/db/engines/database.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { importRecords } from '../../server/importing/index.js';
import { datasetRecords } from '../imports/files.js';
import type { Dataset } from './generate.js';

export interface LoadResult {
  rows: Record<string, number>;
  totalRows: number;
  seconds: { import: number; analyze: number; total: number };
  /** Rows per second over the whole load, ANALYZE included. */
  rowsPerSecond: number;
}

export async function loadThroughImport(db: Database, dataset: Dataset): Promise<LoadResult> {
  const started = Date.now();
  await migrate(db);
  const summary = await importRecords(db, datasetRecords(dataset), { defaultPhoneRegion: 'US', workers: false });
  const rows: Record<string, number> = {};
  for (const [type, outcomes] of Object.entries(summary)) if (typeof outcomes === 'object' && 'added' in outcomes) rows[type] = outcomes.added;
  const loaded = Date.now();
  await db.query('VACUUM (ANALYZE)');
  const done = Date.now();
  const totalRows = Object.values(rows).reduce((a, b) => a + b, 0);
  const total = (done - started) / 1000;
  return {
    rows,
    totalRows,
    seconds: { import: (loaded - started) / 1000, analyze: (done - loaded) / 1000, total },
    rowsPerSecond: Math.round(totalRows / total),
  };
}
