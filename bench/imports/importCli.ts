// `npm run import` (server/cli/import.ts) run as an operator runs it: its own process, with
// the script's Node flags, its peak RSS sampled.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleRss } from '../cpu.js';
import { onEveryCpu } from '../machine.js';
import { nodeFlagsOf } from '../nodeFlags.js';
import { round } from '../stats.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const importNodeFlags = nodeFlagsOf('import');

export interface ImportRun {
  label: string;
  records: number;
  /** As the import reports it (its transaction), and from spawn to exit. */
  seconds: number;
  wallSeconds: number;
  recordsPerSecond: number;
  peakRssMb?: number;
  /** The same rows landed by a raw COPY into tables of the same columns, without indexes, constraints or derived data (rawCopy.ts). */
  copySeconds?: number;
  copyRecordsPerSecond?: number;
}

/** Runs `npm run import` on `file` against `databaseUrl`. */
export async function runImportCli(databaseUrl: string, file: string, label: string, records: number): Promise<ImportRun> {
  const started = performance.now();
  // (Unpinned: the bench's own pinning would put the import's worker threads on one core.)
  const [command, ...args] = onEveryCpu([process.execPath, ...importNodeFlags, '--import', 'tsx', join(root, 'server/cli/import.ts'), file]);
  const child = spawn(command!, args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PGLITE_DATA_DIR: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const rss = sampleRss(child.pid!, 200);
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wallSeconds = (performance.now() - started) / 1000;
  const peakRssMb = rss.stop();
  if (code !== 0) throw new Error(`import of ${label} failed (${code}): ${out.slice(-3000)}`);
  const seconds = Number(/imported \d+ record\(s\) in (\d+) ms/.exec(out)?.[1]) / 1000;
  return {
    label,
    records,
    seconds: round(seconds, 2),
    wallSeconds: round(wallSeconds, 2),
    recordsPerSecond: Math.round(records / seconds),
    peakRssMb,
  };
}
