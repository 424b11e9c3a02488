// `npm run bench -- --imports`: each file applied by `npm run import` (importCli.ts) beside a
// raw COPY of the same rows (rawCopy.ts), on the PostgreSQL bench database:
//   1. the whole dataset into an empty database, 2. the same file again, unchanged;
//   3. a change file touching 1% of the people, 4. the churn file, each restored by its inverse;
//   5. the change file again while searches run through the service, restored after.
// Each inverse is written before its change is applied: a run stopped half-way leaves it
// behind, and the next run applies it first, so the bench database is the dataset again.
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { type DatasetInfo, ensureDataset, recreateDatabase } from '../dataset/build.js';
import { createDataset, type Dataset } from '../dataset/generate.js';
import { beginRun, type RunStamp } from '../machine.js';
import type { BenchOptions } from '../options.js';
import { prewarm } from '../prewarm.js';
import { startTarget } from '../processes.js';
import { askAs, helloAs, personRequests } from '../scenarios.js';
import { serviceTarget } from '../targets.js';
import { type ChangeFiles, churn, datasetRecords, peopleChange, writeNdjson } from './files.js';
import { type ImportRun, runImportCli } from './importCli.js';
import { withRawCopy } from './rawCopy.js';
import { type LoadFigures, type SearchLoad, searchesAround } from './searches.js';

/** What each row measures, and how the report names it. */
const LABELS = {
  'initial load': 'initial load (whole dataset, empty database)',
  'unchanged re-apply': 're-applied unchanged (whole dataset)',
  change: 'change file',
  'change inverse': 'change inverse (restores the data)',
  churn: 'churn file',
  'churn inverse': 'churn inverse (restores the data)',
  'change while searching': 'change file, searches running',
  'change inverse after searching': 'change inverse (restores the data, after the searches)',
} as const;
export type ImportMeasurement = keyof typeof LABELS;

export interface ImportRow extends ImportRun {
  measurement: ImportMeasurement;
  /** People in the database the file was applied to (0: the initial load's empty database). */
  databasePeople: number;
}

export interface ImportRunResult extends RunStamp {
  postgresVersion?: string;
  /** The settings an import's cost depends on most: its buffer cache, the WAL between checkpoints. */
  postgresSettings?: Record<string, string>;
  prewarmed?: boolean;
  options: { people: number; kinds: string[]; samples: number };
  /** The bench database: its name, not its URL. */
  databases: { name: string; people: number; companies: number }[];
  /** The whole dataset as one NDJSON file (the initial load's). */
  fileMb?: number;
  /** What each change file does. */
  notes: string[];
  rows: ImportRow[];
  searches?: { filters: string; idle: LoadFigures; during: LoadFigures };
}

const CHANGE_SHARE = 0.01;
const IDLE_SEARCH_SECONDS = 8;
const SEARCHES_PER_KIND = 100;

interface Context {
  databaseUrl: string;
  people: number;
  workDir: string;
  rows: ImportRow[];
  notes: string[];
  log: (line: string) => void;
}

export async function runImportBench(options: BenchOptions, log: (line: string) => void): Promise<ImportRunResult> {
  const run = beginRun();
  const { databaseUrl, people } = options.postgres!;
  const info = await ensureDataset(options.postgres!, { rebuild: options.rebuild, log });
  run.measuring();
  mkdirSync(options.workDir, { recursive: true });
  const ctx: Context = { databaseUrl, people, workDir: options.workDir, rows: [], notes: [], log };
  await recoverInterruptedRun(ctx);
  const fileMb = await initialLoad(ctx, createDataset(info.scale));

  const db = await openDatabase({ databaseUrl, poolMax: 4 });
  try {
    const postgresVersion = (await db.query<{ version: string }>('SELECT version()'))[0]?.version;
    const settings = await db.query<{ name: string; setting: string }>(
      'SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1::text[]) ORDER BY name',
      [['shared_buffers', 'max_wal_size', 'wal_compression']],
    );
    // The initial load has just written a second copy of the dataset through the caches; a
    // server that has been running holds its data.
    const prewarmed = await prewarm(db);

    log(`imports: a change file touching ${CHANGE_SHARE * 100}% of the people, then the churn file`);
    const change = await peopleChange(db, CHANGE_SHARE);
    await applyAndRestore(ctx, 'change', change, ['change', 'change inverse']);
    await applyAndRestore(ctx, 'churn', await churn(db), ['churn', 'churn inverse']);

    const searching = await searchesThroughService(db, databaseUrl, info, options, run.cpu);
    log(`imports: the change file while searches run (${searching.requests.length} requests)`);
    let searches: ImportRunResult['searches'];
    try {
      await applyAndRestore(ctx, 'change', change, ['change while searching', 'change inverse after searching'], async (start) => {
        const { idle, during, applied } = await searchesAround(searching, IDLE_SEARCH_SECONDS, start);
        searches = { filters: `the bench filter kinds (one large company) through the service, ${options.connections} connections`, idle, during };
        return applied;
      });
    } finally {
      await searching.service.stop();
    }
    return {
      ...run.stamp(),
      postgresVersion,
      postgresSettings: Object.fromEntries(settings.map((r) => [r.name, r.setting])),
      prewarmed,
      options: { people, kinds: options.kinds, samples: options.samples },
      databases: [{ name: decodeURIComponent(new URL(databaseUrl).pathname.slice(1)), people, companies: info.scale.companies }],
      fileMb,
      notes: ctx.notes,
      rows: ctx.rows,
      searches,
    };
  } finally {
    await db.close();
  }
}

/**
 * The whole dataset as one NDJSON file, loaded into an empty database of its own
 * (`<database>_import`, dropped after) beside a raw COPY of its rows, then applied again
 * unchanged and set against the same COPY. Returns the file's MB.
 */
async function initialLoad(ctx: Context, dataset: Dataset): Promise<number> {
  const file = join(ctx.workDir, 'dataset.ndjson');
  const url = new URL(ctx.databaseUrl);
  url.pathname = `${url.pathname}_import`;
  const importUrl = url.toString();
  try {
    const records = await writeNdjson(file, datasetRecords(dataset));
    const fileMb = Math.round(statSync(file).size / 1e6);
    await recreateDatabase(importUrl);
    const db = await openDatabase({ databaseUrl: importUrl, poolMax: 1 });
    await migrate(db);
    await db.close();
    ctx.log(`imports: ${records.toLocaleString('en-US')} records (${fileMb} MB) into an empty database, then again unchanged`);
    const initial = await runImportCli(importUrl, file, LABELS['initial load'], records);
    await withRawCopy(initial, importUrl, datasetRecords(dataset), 2);
    const again = await runImportCli(importUrl, file, LABELS['unchanged re-apply'], records);
    ctx.rows.push(
      { ...initial, measurement: 'initial load', databasePeople: 0 },
      {
        ...again,
        copySeconds: initial.copySeconds,
        copyRecordsPerSecond: initial.copyRecordsPerSecond,
        measurement: 'unchanged re-apply',
        databasePeople: ctx.people,
      },
    );
    return fileMb;
  } finally {
    await recreateDatabase(importUrl, false).catch(() => {});
    rmSync(file, { force: true });
  }
}

const inverseFile = (ctx: Context, name: string) => join(ctx.workDir, `${name}-inverse.ndjson`);

/** Writes the change file and its inverse, applies the change (inside `around`, which starts it), then the inverse; each beside a raw COPY. */
async function applyAndRestore(
  ctx: Context,
  name: string,
  files: ChangeFiles,
  measurements: [ImportMeasurement, ImportMeasurement],
  around = (start: () => Promise<ImportRun>) => start(),
): Promise<void> {
  const file = join(ctx.workDir, `${name}.ndjson`);
  await writeNdjson(file, files.change);
  await writeNdjson(inverseFile(ctx, name), files.inverse);
  const note = `${name}: ${files.description}`;
  if (!ctx.notes.includes(note)) ctx.notes.push(note);
  const apply = async (path: string, records: ChangeFiles['change'], measurement: ImportMeasurement, start = (run: () => Promise<ImportRun>) => run()) => {
    const applied = await start(() => runImportCli(ctx.databaseUrl, path, LABELS[measurement], records.length));
    ctx.rows.push({ ...(await withRawCopy(applied, ctx.databaseUrl, records)), measurement, databasePeople: ctx.people });
    ctx.log(`  ${applied.label}: ${applied.records.toLocaleString('en-US')} records in ${applied.seconds} s`);
  };
  try {
    await apply(file, files.change, measurements[0], around);
  } finally {
    rmSync(file, { force: true });
  }
  await apply(inverseFile(ctx, name), files.inverse, measurements[1]);
  rmSync(inverseFile(ctx, name), { force: true });
}

/** An inverse left by a run that stopped half-way is applied first, so the data is the dataset again. */
async function recoverInterruptedRun(ctx: Context): Promise<void> {
  for (const name of ['change', 'churn']) {
    if (!existsSync(inverseFile(ctx, name))) continue;
    ctx.log(`restoring the data an interrupted run changed (${name})`);
    await runImportCli(ctx.databaseUrl, inverseFile(ctx, name), `${name} inverse left by an interrupted run`, 0);
    rmSync(inverseFile(ctx, name), { force: true });
    ctx.notes.push(`a previous run stopped before restoring its ${name}; restored first`);
  }
}

/** The service started on the bench database (pinned, as in the full run), and each person kind's requests as one large company. */
async function searchesThroughService(
  db: Queryable,
  databaseUrl: string,
  info: DatasetInfo,
  options: BenchOptions,
  cpu: number | undefined,
): Promise<SearchLoad> {
  const { credential, samples } = await askAs(db, info, 'oneLarge', options.samples);
  const spec = serviceTarget('service', { databaseUrl }, helloAs(credential));
  const requests = options.kinds.flatMap((kind) => personRequests(kind, samples).slice(0, SEARCHES_PER_KIND));
  return { service: await startTarget(spec, cpu), token: credential.token, requests, connections: options.connections };
}
