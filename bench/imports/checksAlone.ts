// A bound on what the whole-file goals can read: the file's records read, parsed and
// checked (server/importing/check.ts) with every core on it and no database. An import
// checks each record before it writes anything, so it can be no faster than this; the
// report sets it against the same raw COPY the loads are set against (goals.ts).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { onEveryCpu } from '../machine.js';
import { round } from '../stats.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ChecksAlone {
  seconds: number;
  records: number;
  /** Check threads: one per core (the import itself leaves one core to its thread and the database). */
  workers: number;
}

/** Runs in its own process, unpinned (the bench's pinning would put its threads on one core). */
export async function checksAlone(file: string, defaultPhoneRegion = 'US'): Promise<ChecksAlone> {
  const [command, ...args] = onEveryCpu([process.execPath, '--import', 'tsx', join(root, 'bench/imports/checksAloneProcess.ts'), file, defaultPhoneRegion]);
  const { stdout } = await promisify(execFile)(command!, args, { cwd: root, maxBuffer: 1 << 20 });
  const { records, workers, ms } = JSON.parse(stdout) as { records: number; workers: number; ms: number };
  return { seconds: round(ms / 1000, 2), records, workers };
}
