// The full run's first step, outside the time budget: each engine's dataset built (or found
// present), and PGlite's copied for the direct-SQL reference, since a PGlite directory opens
// in one process at a time.
import { cpSync, rmSync } from 'node:fs';
import { type DatasetInfo, ensureDataset } from '../dataset/build.js';
import { scaleFor } from '../dataset/generate.js';
import type { BenchOptions } from '../options.js';
import type { Engine } from '../plan.js';

export interface Datasets {
  infos: Partial<Record<Engine, DatasetInfo>>;
  /** The PGlite directory the direct-SQL reference opens (removed after the measurements). */
  pgliteDirectCopy?: string;
}

export async function prepareDatasets(options: BenchOptions, log: (line: string) => void): Promise<Datasets> {
  const infos: Datasets['infos'] = {};
  let pgliteDirectCopy: string | undefined;
  if (options.postgres) {
    const { databaseUrl, people, companies, seed } = options.postgres;
    infos.postgres = await ensureDataset({ engine: 'postgres', databaseUrl }, { scale: scaleFor(people, { companies, seed }), rebuild: options.rebuild, log });
  }
  if (options.pglite) {
    const { dataDir, people, companies, seed } = options.pglite;
    infos.pglite = await ensureDataset({ engine: 'pglite', dataDir }, { scale: scaleFor(people, { companies, seed }), rebuild: options.rebuild, log });
    pgliteDirectCopy = `${dataDir}.direct`;
    rmSync(pgliteDirectCopy, { recursive: true, force: true });
    cpSync(dataDir, pgliteDirectCopy, { recursive: true });
  }
  return { infos, pgliteDirectCopy };
}
