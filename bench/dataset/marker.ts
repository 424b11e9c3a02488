// Which dataset a database holds: one row in bench_dataset, written last, so that a
// half-built database never passes for a complete one.
import type { Queryable } from '../../server/db/engines/database.js';
import { GENERATOR_VERSION, type Scale } from './generate.js';
import type { LoadResult } from './loadImport.js';

export interface DatasetMarker extends Scale {
  generatorVersion: number;
  builtAt: string;
  load: LoadResult;
}

export async function readMarker(db: Queryable): Promise<DatasetMarker | undefined> {
  const [exists] = await db.query<{ t: string | null }>("SELECT to_regclass('public.bench_dataset')::text AS t");
  if (!exists?.t) return undefined;
  const [row] = await db.query<{ marker: DatasetMarker }>('SELECT marker FROM bench_dataset');
  return row?.marker;
}

export async function writeMarker(db: Queryable, scale: Scale, load: LoadResult): Promise<DatasetMarker> {
  const marker: DatasetMarker = { ...scale, generatorVersion: GENERATOR_VERSION, builtAt: new Date().toISOString(), load };
  await db.query('CREATE TABLE IF NOT EXISTS bench_dataset (marker jsonb NOT NULL)');
  await db.query('DELETE FROM bench_dataset');
  await db.query('INSERT INTO bench_dataset (marker) VALUES ($1)', [JSON.stringify(marker)]);
  return marker;
}

export const holdsScale = (marker: DatasetMarker | undefined, scale: Scale): marker is DatasetMarker =>
  marker !== undefined &&
  marker.people === scale.people &&
  marker.companies === scale.companies &&
  marker.seed === scale.seed &&
  marker.generatorVersion === GENERATOR_VERSION;
