// Searches through the service over an idle period, then while a change file is applied: what
// an import does to the people reading (`--imports`).
import { type Measured, measureHttp } from '../loadHttp.js';
import type { Running } from '../processes.js';
import type { HttpRequestSpec } from '../scenarios.js';
import { round } from '../stats.js';

export type LoadFigures = Pick<Measured, 'requests' | 'seconds' | 'p50' | 'p99' | 'non2xx'>;

export interface SearchLoad {
  service: Running;
  token: string;
  requests: HttpRequestSpec[];
  connections: number;
}

/** The searches for `idleSeconds`, then while `apply()` runs (started after the idle period); and what it returned. */
export async function searchesAround<T>(load: SearchLoad, idleSeconds: number, apply: () => Promise<T>) {
  const idle = await searchesUntil(load, new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000)));
  const applying = apply();
  const during = await searchesUntil(load, applying);
  return { idle, during, applied: await applying };
}

async function searchesUntil({ service, token, requests, connections }: SearchLoad, until: Promise<unknown>): Promise<LoadFigures> {
  const m = await measureHttp({ url: service.url, pid: service.pid, token, requests, connections, durationS: 3_600, until });
  return { requests: m.requests, seconds: round(m.seconds, 1), p50: m.p50, p99: m.p99, non2xx: m.non2xx };
}
