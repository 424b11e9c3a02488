// The import (server/cli/import.ts) run as production runs it: built, in its own process,
// with `npm run import`'s Node flags, its peak RSS sampled. (`npm run import` loads the
// TypeScript through tsx, whose loader takes memory of its own: docs/operating/import.md.)
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sampleRss } from '../cpu.js';
import { onEveryCpu } from '../machine.js';
import { round } from '../stats.js';
import { builtImport } from '../targets.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ImportRun {
  label: string;
  records: number;
  /** As the import reports it: its transaction's. */
  seconds: number;
  recordsPerSecond: number;
  peakRssMb?: number;
  /** The same rows landed by a raw COPY into tables of the same columns, without indexes, constraints or derived data (rawCopy.ts). */
  copySeconds?: number;
  copyRecordsPerSecond?: number;
}

/** Runs the built import on `file` against `databaseUrl`. */
export async function runImportCli(databaseUrl: string, file: string, label: string, records: number): Promise<ImportRun> {
  // (Unpinned: the bench's own pinning would put the import's worker threads on one core.)
  const [command, ...args] = onEveryCpu([...builtImport(), file]);
  const env = { ...process.env, DATABASE_URL: databaseUrl, PGLITE_DATA_DIR: '', LOG_LEVEL: 'warn' };
  let rss: ReturnType<typeof sampleRss> | undefined;
  let peakRssMb: number | undefined;
  const out = await new Promise<string>((resolve, reject) => {
    const child = execFile(command!, args, { cwd: root, env, maxBuffer: 1 << 26 }, (error, stdout, stderr) =>
      error ? reject(new Error(`import of ${label} failed (${error.code}): ${`${stdout}${stderr}`.slice(-3000)}`)) : resolve(`${stdout}${stderr}`),
    );
    rss = sampleRss(child.pid!, 200);
  }).finally(() => (peakRssMb = rss?.stop()));
  const seconds = Number(/imported \d+ record\(s\) in (\d+) ms/.exec(out)?.[1]) / 1000;
  return { label, records, seconds: round(seconds, 2), recordsPerSecond: Math.round(records / seconds), peakRssMb };
}
