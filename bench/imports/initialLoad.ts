// The whole dataset written as one NDJSON file and loaded by `npm run import` into an empty
// database of its own (`<database>_import`, dropped after), beside a raw COPY of its rows;
// then the same file again, unchanged, set against the same COPY.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { recreateDatabase } from '../dataset/build.js';
import type { Dataset } from '../dataset/generate.js';
import { datasetRecords, writeNdjson } from './files.js';
import { type ImportRun, runImportCli } from './importCli.js';
import { withRawCopy } from './rawCopy.js';

export interface InitialLoad {
  initial: ImportRun;
  unchanged: ImportRun;
  fileMb: number;
}

export async function initialLoad(databaseUrl: string, dataset: Dataset, workDir: string, log: (line: string) => void): Promise<InitialLoad> {
  mkdirSync(workDir, { recursive: true });
  const file = join(workDir, 'dataset.ndjson');
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname}_import`;
  const importUrl = url.toString();
  try {
    log('imports: writing the whole dataset as one NDJSON file');
    const records = await writeNdjson(file, datasetRecords(dataset));
    const fileMb = Math.round(statSync(file).size / 1e6);
    await recreateDatabase(importUrl);
    const db = await openDatabase({ databaseUrl: importUrl, poolMax: 1 });
    await migrate(db);
    await db.close();
    log(`imports: npm run import of ${records.toLocaleString('en-US')} records (${fileMb} MB) into an empty database, then again unchanged`);
    const initial = await runImportCli(importUrl, file, 'initial load (whole dataset, empty database)', records);
    await withRawCopy(initial, importUrl, datasetRecords(dataset), 2);
    const again = await runImportCli(importUrl, file, 're-applied unchanged (whole dataset)', records);
    const unchanged = { ...again, copySeconds: initial.copySeconds, copyRecordsPerSecond: initial.copyRecordsPerSecond };
    return { initial, unchanged, fileMb };
  } finally {
    await recreateDatabase(importUrl, false).catch(() => {});
    rmSync(file, { force: true });
  }
}
