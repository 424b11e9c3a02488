// A database holding the dataset of a scale, built through the service's own import only
// when it does not already. Which dataset a database holds is one row in bench_dataset,
// written last, so that a half-built database never passes for a complete one.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { IMPORT_SESSION_SETTINGS, importRecords } from '../../server/importing/index.js';
import { datasetRecords } from '../imports/files.js';
import { type BenchCredential, createDataset, type Dataset, GENERATOR_VERSION, type Scale, scaleFor } from './generate.js';

export type DatasetLocation = { engine: 'postgres'; databaseUrl: string } | { engine: 'pglite'; dataDir: string };
/** Where a dataset lives and its size, as the options name it. */
export type DatasetOption = DatasetLocation & { people: number; companies?: number; seed?: number };

export interface DatasetMarker extends Scale {
  generatorVersion: number;
  builtAt: string;
  /** The seconds the load took, VACUUM (ANALYZE) included. */
  load: { seconds: { total: number } };
}

export interface DatasetInfo {
  scale: Scale;
  credentials: BenchCredential[];
  /** False when the database already held this scale. */
  built: boolean;
  marker: DatasetMarker;
}

export async function ensureDataset(
  location: DatasetOption,
  { rebuild, log = () => {} }: { rebuild?: boolean; log?: (line: string) => void },
): Promise<DatasetInfo> {
  const scale = scaleFor(location.people, location);
  const dataset = createDataset(scale);
  const { credentials } = dataset;
  const scaleText = `${scale.people.toLocaleString('en-US')} people`;
  const keep = async (db: Database, marker: DatasetMarker) => {
    // A migration added since the build (a new index, say) is applied to the stored data.
    const applied = await migrate(db);
    if (applied.length) {
      log(`applied new migrations to the stored dataset: ${applied.join(', ')}`);
      await db.query('ANALYZE');
    }
    await db.close();
    log(`${describe(location)} already holds ${scaleText} (seed ${scale.seed}); not rebuilt`);
    return { scale, credentials, built: false, marker };
  };
  const build = async (db: Database) => {
    log(`building ${scaleText} over ${scale.companies} companies into ${describe(location)} through the import`);
    const marker = await loadThroughImport(db, dataset);
    await db.close();
    return { scale, credentials, built: true, marker };
  };

  if (location.engine === 'postgres') {
    const existing = await inspectPostgres(location.databaseUrl);
    if (existing && !rebuild && holdsScale(existing.marker, scale)) return keep(existing.db, existing.marker);
    if (existing) {
      await existing.db.close();
      if (!existing.marker && existing.tables > 0)
        throw new Error(`${describe(location)} holds tables but no bench dataset: refusing to drop it; choose another --database-url`);
    }
    await recreateDatabase(location.databaseUrl);
    return build(await openDatabase({ databaseUrl: location.databaseUrl, poolMax: 1, sessionSettings: IMPORT_SESSION_SETTINGS }));
  }
  if (existsSync(location.dataDir) && !rebuild) {
    const db = await openDatabase({ pgliteDataDir: location.dataDir });
    const marker = await readMarker(db);
    if (holdsScale(marker, scale)) return keep(db, marker);
    await db.close();
  }
  rmSync(location.dataDir, { recursive: true, force: true });
  mkdirSync(dirname(location.dataDir), { recursive: true });
  return build(await openDatabase({ pgliteDataDir: location.dataDir }));
}

export function describe(location: DatasetLocation): string {
  if (location.engine === 'pglite') return `PGlite ${location.dataDir}`;
  const url = new URL(location.databaseUrl);
  return `PostgreSQL ${url.host}${url.pathname}`;
}

async function inspectPostgres(databaseUrl: string): Promise<{ db: Database; marker: DatasetMarker | undefined; tables: number } | undefined> {
  const exists = await asAdmin(databaseUrl, async (client, name) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount);
  if (!exists) return undefined;
  const db = await openDatabase({ databaseUrl, poolMax: 1 });
  const [row] = await db.query<{ tables: number }>("SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname = 'public'");
  return { db, marker: await readMarker(db), tables: row!.tables };
}

/** Drops the database (closing its sessions), and unless `andCreate` is false creates it empty. */
export async function recreateDatabase(databaseUrl: string, andCreate = true): Promise<void> {
  await asAdmin(databaseUrl, async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    if (andCreate) await client.query(`CREATE DATABASE ${name}`);
  });
}

/**
 * Makes `copyUrl`'s database anew as a copy of `templateUrl`'s files (CREATE DATABASE …
 * TEMPLATE, copying the files rather than writing every page through the WAL where the
 * server offers the choice). No session may be connected to the template meanwhile.
 */
export async function copyDatabase(templateUrl: string, copyUrl: string): Promise<void> {
  const template = databaseName(templateUrl);
  await asAdmin(copyUrl, async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const [{ v }] = (await client.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v")).rows as [{ v: number }];
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}${v >= 150000 ? ' STRATEGY FILE_COPY' : ''}`);
  });
}

/** `work` on the maintenance database, given the database's name (databaseName). */
async function asAdmin<T>(databaseUrl: string, work: (client: pg.Client, name: string) => Promise<T>): Promise<T> {
  const name = databaseName(databaseUrl);
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(client, name);
  } finally {
    await client.end();
  }
}

/** The database's name in `databaseUrl`, checked: it is interpolated into DDL. */
function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`database name "${name}" must be lower-case letters, digits and underscores`);
  return name;
}

/**
 * The dataset loaded as one file into an empty database, on either engine, through the
 * import's initial-load path (rows first, then indexes and derived data once:
 * server/db/import/deferredIndexes.ts); then the database marked as holding it. Why the
 * import and not a COPY of the bench's own: docs/performance.md.
 */
async function loadThroughImport(db: Database, dataset: Dataset): Promise<DatasetMarker> {
  const started = Date.now();
  await migrate(db);
  await importRecords(db, datasetRecords(dataset), { defaultPhoneRegion: 'US', workers: false });
  await db.query('VACUUM (ANALYZE)');
  const load = { seconds: { total: (Date.now() - started) / 1000 } };
  const marker: DatasetMarker = { ...dataset.scale, generatorVersion: GENERATOR_VERSION, builtAt: new Date().toISOString(), load };
  await db.query('CREATE TABLE IF NOT EXISTS bench_dataset (marker jsonb NOT NULL)');
  await db.query('DELETE FROM bench_dataset');
  await db.query('INSERT INTO bench_dataset (marker) VALUES ($1)', [JSON.stringify(marker)]);
  return marker;
}

async function readMarker(db: Database): Promise<DatasetMarker | undefined> {
  const [exists] = await db.query<{ t: string | null }>("SELECT to_regclass('public.bench_dataset')::text AS t");
  if (!exists?.t) return undefined;
  return (await db.query<{ marker: DatasetMarker }>('SELECT marker FROM bench_dataset'))[0]?.marker;
}

const holdsScale = (marker: DatasetMarker | undefined, scale: Scale): marker is DatasetMarker =>
  marker?.generatorVersion === GENERATOR_VERSION && (['people', 'companies', 'seed'] as const).every((key) => marker[key] === scale[key]);
