// `npm run bench -- --imports`: each file applied by the built import (importCli.ts) beside
// its floors measured in the same run, on the PostgreSQL bench database, each file twice:
//   1. the whole dataset into an empty database, then the same file again, unchanged
//      (beside its stored rows alone, loadedRowsAlone.ts, and a raw COPY of its rows,
//      rawCopy.ts); and into another empty database with the change feed off; pages of
//      the first load's feed read (feed.ts);
//   2. a change file touching 1% of the people, and the churn file, each restored by its
//      inverse (beside their stored rows alone, storedRowsAlone.ts), each also with the
//      change feed off: each turn on a fresh copy of the bench database (workingCopy.ts);
//   3. on another fresh copy, the change file again while searches run through the
//      service at a fixed rate, restored after, a few times over (searches.ts); then
//      webhook deliveries from one-record imports to a receiver here (webhookDelivery.ts).
// The feed on and off alternate which goes first, turn by turn.
// Before each measured file and floor the database is brought to one stated state
// (databaseState.ts), kept with the row. Nothing writes to the bench database itself, so
// a run stopped half-way leaves it as the dataset. What a run keeps: results.ts.
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Queryable } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { type DatasetInfo, ensureDataset, recreateDatabase } from '../dataset/build.js';
import { createDataset, type Dataset } from '../dataset/generate.js';
import { beginRun } from '../machine.js';
import type { BenchOptions } from '../options.js';
import { startTarget } from '../processes.js';
import { askAs, helloAs, personRequests } from '../scenarios.js';
import { round } from '../stats.js';
import { serviceTarget } from '../targets.js';
import { previousRun } from './agreement.js';
import { startBenchServer } from './benchServer.js';
import { type ChecksAlone, checksAlone } from './checksAlone.js';
import { type DatabaseState, settle } from './databaseState.js';
import { enableFeedLeftOff, type FeedReads, measureFeedReads, withFeedOff } from './feed.js';
import { FEED_GOALS } from './feedGoals.js';
import { type ChangeFiles, churn, datasetRecords, peopleChange, writeNdjson } from './files.js';
import { type ImportRun, runImportCli } from './importCli.js';
import { whenImportWrites } from './importWriting.js';
import { loadedRowsAlone } from './loadedRowsAlone.js';
import { refuseOtherSessions } from './otherSessions.js';
import { withRawCopy } from './rawCopy.js';
import { FEED_OFF, type ImportMeasurement, type ImportRow, type ImportRunResult, LABELS } from './results.js';
import { type SearchLoad, searchesAround, throughputAround } from './searches.js';
import { fastestStoredRowsAlone } from './storedRowsAlone.js';
import { withWalWritten } from './walWritten.js';
import { measureWebhookDelivery } from './webhookDelivery.js';
import { onWorkingCopy, type WorkingCopy } from './workingCopy.js';

export const REPETITIONS = 2;
const CHANGE_SHARE = 0.01;
const IDLE_SEARCH_SECONDS = 40;
const SEARCHES_PER_KIND = 100;
/** Raw COPYs of the whole dataset (each about as long as the import's checks): the fastest of two. */
const WHOLE_DATASET_COPIES = 2;
const FEED_READ_SAMPLES = 200;
const WEBHOOK_SAMPLES = 100;

interface Context {
  databaseUrl: string;
  db: Queryable;
  people: number;
  workDir: string;
  rows: ImportRow[];
  notes: string[];
  feedReads?: FeedReads;
  log: (line: string) => void;
}

type Feed = 'on' | 'off';
/** On first in odd turns, off first in even ones: neither setting always follows the other. */
const feedOrder = (repetition: number): Feed[] => (repetition % 2 ? ['on', 'off'] : ['off', 'on']);

/** On the server --database-url names, or else on a server of the bench's own (benchServer.ts). */
export async function runImportBench(options: BenchOptions, log: (line: string) => void): Promise<ImportRunResult> {
  const given = options.postgres!;
  if (given.given) return runOn(options, given, 'the server --database-url names', log);
  const own = await startBenchServer(decodeURIComponent(new URL(given.databaseUrl).pathname.slice(1)), log);
  try {
    return await runOn(options, { ...given, databaseUrl: own.databaseUrl }, `a server of the bench's own (${relative(process.cwd(), own.dir)})`, log);
  } finally {
    await own.stop();
  }
}

async function runOn(
  options: BenchOptions,
  postgres: NonNullable<BenchOptions['postgres']>,
  server: string,
  log: (line: string) => void,
): Promise<ImportRunResult> {
  const run = beginRun();
  const { databaseUrl, people } = postgres;
  const previous = previousRun(options.outDir, people);
  const info = await ensureDataset(postgres, { rebuild: options.rebuild, log });
  run.measuring();
  mkdirSync(options.workDir, { recursive: true });
  const db = await openDatabase({ databaseUrl, poolMax: 4 });
  const ctx: Context = { databaseUrl, db, people, workDir: options.workDir, rows: [], notes: [], log };
  // Read from the bench database, which nothing writes to after (workingCopy.ts).
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(ctx, info);
  } finally {
    await db.close();
  }
  const { fileMb, checksAlone, postgresVersion, settings, change, churnFiles } = prepared;

  log(`imports: a change file touching ${CHANGE_SHARE * 100}% of the people, then the churn file, ${REPETITIONS} times, each application on a fresh copy`);
  const prewarmed: boolean[] = [];
  const turns = [
    { name: 'change', files: change, measurements: ['change', 'change inverse'] },
    { name: 'churn', files: churnFiles, measurements: ['churn', 'churn inverse'] },
  ] as const;
  for (let repetition = 1; repetition <= REPETITIONS; repetition++)
    for (const { name, files, measurements } of turns)
      for (const feed of feedOrder(repetition))
        await onWorkingCopy(databaseUrl, async (copy) => {
          prewarmed.push(copy.prewarmed);
          const on = onCopy(ctx, copy, `turn ${repetition}, the ${name} file, feed ${feed}`);
          await applyAndRestore(on, name, files, [...measurements], repetition, feed);
        });
  const { searches, webhookDelivery } = await onWorkingCopy(databaseUrl, async (copy) => {
    const last = onCopy(ctx, copy, 'the searches and the webhook deliveries');
    prewarmed.push(copy.prewarmed);
    const searches = await changeWhileSearching(last, change, info, options, run.cpu);
    log(`imports: ${WEBHOOK_SAMPLES} webhook deliveries, each from a one-record import's commit`);
    const webhookDelivery = await measureWebhookDelivery(last.databaseUrl, { samples: WEBHOOK_SAMPLES });
    log(`  delivered: p50 ${webhookDelivery.p50Ms} ms, p99 ${webhookDelivery.p99Ms} ms`);
    return { searches, webhookDelivery };
  });
  return {
    ...run.stamp(),
    postgresVersion,
    server,
    postgresSettings: Object.fromEntries(settings.map((r) => [r.name, r.setting])),
    prewarmed: prewarmed.every(Boolean),
    workingCopies: true,
    options: { people, kinds: options.kinds, samples: options.samples },
    repetitions: REPETITIONS,
    databases: [{ name: decodeURIComponent(new URL(databaseUrl).pathname.slice(1)), people, companies: info.scale.companies }],
    fileMb,
    checksAlone,
    notes: ctx.notes,
    rows: ctx.rows,
    searches,
    feedReads: ctx.feedReads,
    webhookDelivery,
    previous,
  };
}

/** What the run reads from the bench database before the turns: the initial loads (beside it), the server, the change files. */
async function prepare(ctx: Context, info: DatasetInfo) {
  const { db } = ctx;
  await refuseOtherSessions(db);
  await recoverInterruptedRun(ctx);
  const { fileMb, checksAlone } = await initialLoads(ctx, createDataset(info.scale));
  const postgresVersion = (await db.query<{ version: string }>('SELECT version()'))[0]?.version;
  const settings = await db.query<{ name: string; setting: string }>(
    'SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1::text[]) ORDER BY name',
    [['shared_buffers', 'max_wal_size', 'wal_compression', 'fsync', 'autovacuum']],
  );
  const change = await peopleChange(db, CHANGE_SHARE);
  const churnFiles = await churn(db);
  return { fileMb, checksAlone, postgresVersion, settings, change, churnFiles };
}

/** The run's context on a working copy, with a line in the log. */
function onCopy(ctx: Context, copy: WorkingCopy, what: string): Context {
  ctx.log(`imports: ${what}: on a fresh copy of the bench database (copied and prewarmed in ${copy.seconds} s)`);
  return { ...ctx, databaseUrl: copy.databaseUrl, db: copy.db };
}

/**
 * The whole dataset as one NDJSON file, loaded into an empty database of its own
 * (`<database>_import`, dropped after) and applied again unchanged, then loaded into
 * another empty database with the change feed off (feedOrder says which first),
 * REPETITIONS times, each into a database made anew; each load with the feed on beside its
 * stored rows alone in the same empty database, which it and its re-apply are set against;
 * the first beside a raw COPY of its rows too, and its feed read by pages; then the file's
 * checks alone. Returns the file's MB and those checks.
 */
async function initialLoads(ctx: Context, dataset: Dataset): Promise<{ fileMb: number; checksAlone: ChecksAlone }> {
  const file = join(ctx.workDir, 'dataset.ndjson');
  const url = new URL(ctx.databaseUrl);
  url.pathname = `${url.pathname}_import`;
  const importUrl = url.toString();
  try {
    const records = await writeNdjson(file, datasetRecords(dataset));
    const fileMb = Math.round(statSync(file).size / 1e6);
    ctx.log(
      `imports: ${records.toLocaleString('en-US')} records (${fileMb} MB) into an empty database, then again unchanged, and with the change feed off, ${REPETITIONS} times`,
    );
    const load: InitialLoad = { ctx, importUrl, file, records, rows: () => datasetRecords(dataset) };
    for (let repetition = 1; repetition <= REPETITIONS; repetition++)
      for (const feed of feedOrder(repetition)) {
        await intoEmptyDatabase(load, repetition, feed);
        if (feed === 'on' && !ctx.feedReads) {
          ctx.feedReads = await measureFeedReads(importUrl, { samples: FEED_READ_SAMPLES, limit: FEED_GOALS.readLimit });
          ctx.log(`  feed: ${ctx.feedReads.samples} pages of ${ctx.feedReads.limit} changes, p50 ${ctx.feedReads.p50Ms} ms, p99 ${ctx.feedReads.p99Ms} ms`);
        }
      }
    const checked = await checksAlone(file);
    ctx.log(`  the file's checks alone, no database (${checked.workers} threads): ${checked.seconds} s`);
    return { fileMb, checksAlone: checked };
  } finally {
    await recreateDatabase(importUrl, false).catch(() => {});
    rmSync(file, { force: true });
  }
}

interface InitialLoad {
  ctx: Context;
  importUrl: string;
  file: string;
  records: number;
  rows: () => Iterable<ImportRecord>;
  /** The first load's raw COPY, which every load and re-apply is set against. */
  copied?: ImportRun;
}

/** One initial load into a database made anew, from the stated state: with the feed on, then re-applied unchanged; or with it off. */
async function intoEmptyDatabase(load: InitialLoad, repetition: number, feed: Feed): Promise<void> {
  const { ctx, importUrl, file, records } = load;
  await recreateDatabase(importUrl);
  const db = await openDatabase({ databaseUrl: importUrl, poolMax: 1 });
  try {
    await migrate(db);
    // The floor of both loads below, in this empty database (rolled back).
    const floor = feed === 'on' ? await loadedRowsAlone(importUrl, load.rows()) : undefined;
    const emptyState = await settle(db);
    const copy = () => ({ copySeconds: load.copied?.copySeconds, copyRecordsPerSecond: load.copied?.copyRecordsPerSecond });
    const row = (run: ImportRun, measurement: ImportMeasurement, databasePeople: number, state: DatabaseState): ImportRow => ({
      ...run,
      ...copy(),
      ...(floor && { storedAloneSeconds: floor.seconds, storedAloneEach: floor.each }),
      measurement,
      repetition,
      databasePeople,
      state,
    });
    if (feed === 'off') {
      const measurement = FEED_OFF['initial load'];
      const off = await withFeedOff(importUrl, () => withWalWritten(db, () => runImportCli(importUrl, file, LABELS[measurement], records)));
      load.copied ??= await withRawCopy({ ...off }, importUrl, load.rows(), 2, WHOLE_DATASET_COPIES);
      ctx.rows.push(row(off, measurement, 0, emptyState));
      ctx.log(`  ${repetition}: initial load with the change feed off ${off.seconds} s`);
      return;
    }
    const initial = await withWalWritten(db, () => runImportCli(importUrl, file, LABELS['initial load'], records));
    load.copied ??= await withRawCopy({ ...initial }, importUrl, load.rows(), 2, WHOLE_DATASET_COPIES);
    const loadedState = await settle(db);
    const again = await withWalWritten(db, () => runImportCli(importUrl, file, LABELS['unchanged re-apply'], records));
    ctx.rows.push(row(initial, 'initial load', 0, emptyState), row(again, 'unchanged re-apply', ctx.people, loadedState));
    ctx.log(
      `  ${repetition}: initial load ${initial.seconds} s (peak RSS ${initial.peakRssMb} MB), re-applied ${again.seconds} s; its stored rows alone ${floor!.seconds} s`,
    );
  } finally {
    await db.close();
  }
}

const inverseFile = (ctx: Context, name: string) => join(ctx.workDir, `${name}-inverse.ndjson`);

/**
 * On a working copy (onWorkingCopy): brings it to the stated state and applies the change
 * file (inside `around`, which starts it) beside a raw COPY. With the feed on, then the
 * inverse, measured too, and from the stated state again the change's stored rows alone, on
 * the data as it was before the file (which the inverse has restored). With the feed off,
 * the change alone: the copy is dropped after.
 */
async function applyAndRestore(
  ctx: Context,
  name: 'change' | 'churn',
  files: ChangeFiles,
  measurements: [ImportMeasurement, ImportMeasurement],
  repetition: number,
  feed: Feed,
  around = (start: () => Promise<ImportRun>) => start(),
): Promise<void> {
  const file = join(ctx.workDir, `${name}.ndjson`);
  const note = `${name}: ${files.description}`;
  if (!ctx.notes.includes(note)) ctx.notes.push(note);
  const apply = async (path: string, records: ChangeFiles['change'], measurement: ImportMeasurement, state?: DatabaseState, start = around) => {
    const applied = await start(() => withWalWritten(ctx.db, () => runImportCli(ctx.databaseUrl, path, LABELS[measurement], records.length)));
    const row: ImportRow = { ...(await withRawCopy(applied, ctx.databaseUrl, records)), measurement, repetition, databasePeople: ctx.people, state };
    ctx.rows.push(row);
    ctx.log(`  ${applied.label} (${repetition}): ${applied.records.toLocaleString('en-US')} records in ${applied.seconds} s`);
    return row;
  };
  await writeNdjson(file, files.change);
  try {
    if (feed === 'off') {
      await apply(file, files.change, FEED_OFF[name], await settle(ctx.db), (start) => withFeedOff(ctx.databaseUrl, start));
      return;
    }
    await writeNdjson(inverseFile(ctx, name), files.inverse);
    const changed = await apply(file, files.change, measurements[0], await settle(ctx.db));
    await apply(inverseFile(ctx, name), files.inverse, measurements[1], undefined, (start) => start());
    const alone = await fastestStoredRowsAlone(ctx.db, ctx.databaseUrl, files.change);
    changed.storedAloneSeconds = round(alone.seconds, 3);
    changed.storedAloneEach = alone.each.map((s) => round(s, 3));
    ctx.log(`  ${changed.label} (${repetition}): stored rows alone ${changed.storedAloneEach.join(' / ')} s`);
  } finally {
    rmSync(file, { force: true });
    rmSync(inverseFile(ctx, name), { force: true });
  }
}

/** The change file once more, while searches run through the service; restored after. */
async function changeWhileSearching(
  ctx: Context,
  change: ChangeFiles,
  info: DatasetInfo,
  options: BenchOptions,
  cpu: number | undefined,
): Promise<ImportRunResult['searches']> {
  const load = await searchesThroughService(ctx.db, ctx.databaseUrl, info, options, cpu);
  ctx.log(`imports: the change file while searches run (${Object.keys(load.kinds).join(', ')})`);
  let searches: ImportRunResult['searches'];
  try {
    const throughput = await throughputAround(
      load,
      (applied) => changeOnce(ctx, change, applied),
      (ended) => whenImportWrites(ctx.db, ended),
    );
    const restore = async () => {
      await runImportCli(ctx.databaseUrl, inverseFile(ctx, 'change'), 'change inverse, between the searches', change.inverse.length);
      return settle(ctx.db);
    };
    await applyAndRestore(ctx, 'change', change, ['change while searching', 'change inverse after searching'], 1, 'on', async (start) => {
      const { figures, applied } = await searchesAround(load, throughput, IDLE_SEARCH_SECONDS, { apply: start, restore });
      searches = { filters: 'the bench filter kinds as the credential of one large company, through the service', ...figures };
      return applied;
    });
  } finally {
    await load.service.stop();
  }
  return searches;
}

/** The change file applied and restored, unmeasured (the service's throughput beside it); `applied` is told between the two. */
async function changeOnce(ctx: Context, files: ChangeFiles, applied: () => void): Promise<void> {
  const file = join(ctx.workDir, 'change.ndjson');
  await writeNdjson(inverseFile(ctx, 'change'), files.inverse);
  await writeNdjson(file, files.change);
  try {
    await runImportCli(ctx.databaseUrl, file, 'change file, beside the throughput', files.change.length);
  } finally {
    rmSync(file, { force: true });
  }
  applied();
  await runImportCli(ctx.databaseUrl, inverseFile(ctx, 'change'), 'change inverse, beside the throughput', files.inverse.length);
  rmSync(inverseFile(ctx, 'change'), { force: true });
}

/**
 * The change feed is turned back on if a run stopped with it off (runs before the working
 * copies disabled it on the bench database itself); an inverse a stopped run left behind
 * belonged to its copy, which the next copy replaces, so it is removed, not applied.
 */
async function recoverInterruptedRun(ctx: Context): Promise<void> {
  if (await enableFeedLeftOff(ctx.db)) {
    ctx.log('turning the change feed back on: a previous run stopped with it off');
    ctx.notes.push('a previous run stopped with the change feed off; turned back on first');
  }
  for (const name of ['change', 'churn']) {
    if (!existsSync(inverseFile(ctx, name))) continue;
    rmSync(inverseFile(ctx, name), { force: true });
    ctx.notes.push(`a previous run stopped before restoring its ${name} on its copy; the copy is made anew`);
  }
}

/** The service started on the database (a copy of the bench database; pinned, as in the full run), and each person kind's requests as one large company. */
async function searchesThroughService(
  db: Queryable,
  databaseUrl: string,
  info: DatasetInfo,
  options: BenchOptions,
  cpu: number | undefined,
): Promise<SearchLoad> {
  const { credential, samples } = await askAs(db, info, 'oneLarge', options.samples);
  const spec = serviceTarget('service', { databaseUrl }, helloAs(credential));
  const kinds = Object.fromEntries(options.kinds.map((kind) => [kind, personRequests(kind, samples).slice(0, SEARCHES_PER_KIND)]));
  return { service: await startTarget(spec, cpu), token: credential.token, kinds, connections: options.connections };
}
