// vitest's global setup: one migrated PGlite cluster, dumped to a file once per run, that
// every throwaway PGlite database (databases.ts) starts from. Creating an empty cluster
// runs initdb, seconds of CPU; loading a dump takes a fraction of that, and the suite
// makes a few hundred databases.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file holding the migrated cluster's dump. */
    pgliteTemplate: string;
  }
}

/** Every vitest project runs the global setup; the template is made once per vitest process. */
const made = Symbol.for('lookup.tests.pgliteTemplate');

export default async function providePgliteTemplate(project: TestProject): Promise<void> {
  const memo = globalThis as { [made]?: Promise<string> };
  memo[made] ??= makeTemplate();
  project.provide('pgliteTemplate', await memo[made]);
}

async function makeTemplate(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'data');
  // Migrated by the service's own code, on disk; then dumped as PGlite dumps a cluster.
  const db = await openDatabase({ pgliteDataDir: dataDir });
  await migrate(db);
  await db.close();
  const cluster = await PGlite.create({ dataDir });
  const dump = await cluster.dumpDataDir('none');
  await cluster.close();
  const file = join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return file;
}
