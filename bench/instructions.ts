// Instructions per request under valgrind's callgrind: they move by a few percent between
// batches (where a GC falls), not with what else the host runs, as req/s and even CPU time
// per request do, by tens of percent. A process runs many times slower under it, so only
// hello is counted.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startTarget, type TargetSpec } from './processes.js';

export interface InstructionCount {
  /** Instructions per request of each batch, in order. */
  perRequest: number[];
  batchRequests: number;
  warmupRequests: number;
}

/** Enough warm-up that V8 has compiled the hot path; batches long enough that a stray GC or timer is a small part. */
const COUNTING = { warmupRequests: 12_000, batchRequests: 3_000, batches: 5 };

export function callgrindAvailable(): boolean {
  return spawnSync('callgrind_control', ['--version']).status === 0;
}

/**
 * `spec` under callgrind, warmed up (JIT, caches), then each batch counted apart: counters
 * zeroed, batch sent, counts dumped. Every thread counts (libuv's pool, V8's compiler and GC).
 */
export async function countInstructions(
  spec: TargetSpec,
  request: { path: string; token: string },
  connections: number,
  counting: typeof COUNTING = COUNTING,
): Promise<InstructionCount> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
  const counted = { ...spec, argv: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${join(dir, 'callgrind.%p')}`, ...spec.argv] };
  const target = await startTarget(counted, undefined, 300_000);
  const send = async (amount: number) => {
    const result = await autocannon({ url: target.url + request.path, connections, amount, headers: { authorization: `Bearer ${request.token}` } });
    if (result.non2xx || result.errors) throw new Error(`${spec.name} under callgrind: ${result.non2xx} non-2xx, ${result.errors} errors`);
  };
  const control = (action: '--zero' | '--dump') => {
    const run = spawnSync('callgrind_control', [action, String(target.pid)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`callgrind_control ${action}: ${run.stderr || run.stdout}`);
  };
  try {
    await send(counting.warmupRequests);
    const perRequest: number[] = [];
    for (let batch = 1; batch <= counting.batches; batch++) {
      control('--zero');
      await send(counting.batchRequests);
      control('--dump');
      perRequest.push(dumpedInstructions(join(dir, `callgrind.${target.pid}.${batch}`)) / counting.batchRequests);
    }
    return { perRequest, batchRequests: counting.batchRequests, warmupRequests: counting.warmupRequests };
  } finally {
    await target.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The `summary:` line of a callgrind dump: instructions executed since the counters were zeroed. */
function dumpedInstructions(file: string): number {
  const summary = /^summary: (\d+)$/m.exec(readFileSync(file, 'utf8'));
  if (!summary) throw new Error(`${file}: no summary line`);
  return Number(summary[1]);
}
