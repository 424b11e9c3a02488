// Searches through the service while a change file is applied: what an import does to the
// people reading (`--imports`). First the service's throughput over the kinds at once (a
// closed loop at `connections`); then, at a share of it (open loop, openLoop.ts), a warm-up
// (not kept: the first run at 1,000,000 people had every kind's idle p99 near 200 ms from
// one stall right after the saturated phase, and the change file's near 40 ms), an idle
// period and the change file's, each kind's p99 set against its own idle p99 at that rate.
import { measureHttp } from '../loadHttp.js';
import type { Running } from '../processes.js';
import type { HttpRequestSpec } from '../scenarios.js';
import { round } from '../stats.js';
import { type OpenLoopFigures, openLoop } from './openLoop.js';

export interface SearchLoad {
  service: Running;
  token: string;
  /** Each kind's requests. */
  kinds: Record<string, HttpRequestSpec[]>;
  connections: number;
}

export interface SearchFigures {
  /** Every kind at once, `connections` at a time, for SATURATION_SECONDS: the service's throughput. */
  saturated: { connections: number; seconds: number; rps: number };
  /** The share of that throughput the open loop sends at. */
  rateShare: number;
  idle: OpenLoopFigures;
  during: OpenLoopFigures;
}

const SATURATION_SECONDS = 5;
const WARMUP_SECONDS = 3;
export const RATE_SHARE = 0.5;

/** The searches (above), then `apply()` started after the idle period; and what it returned. */
export async function searchesAround<T>(load: SearchLoad, idleSeconds: number, apply: () => Promise<T>) {
  const { service, token, kinds, connections } = load;
  const mixed = interleave(Object.values(kinds));
  const closed = await measureHttp({ url: service.url, pid: service.pid, token, requests: mixed, connections, durationS: SATURATION_SECONDS });
  const rate = closed.rps * RATE_SHARE;
  await openLoop({ url: service.url, token, kinds, rate, until: { seconds: WARMUP_SECONDS } });
  const idle = await openLoop({ url: service.url, token, kinds, rate, until: { seconds: idleSeconds } });
  const applying = apply();
  const during = await openLoop({ url: service.url, token, kinds, rate, until: applying });
  const figures: SearchFigures = {
    saturated: { connections, seconds: round(closed.seconds, 1), rps: round(closed.rps, 1) },
    rateShare: RATE_SHARE,
    idle,
    during,
  };
  return { figures, applied: await applying };
}

/** The kinds' requests taken in turn: a closed loop then asks each kind alike. */
function interleave(pools: HttpRequestSpec[][]): HttpRequestSpec[] {
  const longest = Math.max(...pools.map((p) => p.length));
  return Array.from({ length: longest }, (_, i) => pools.map((p) => p[i % p.length]!)).flat();
}
