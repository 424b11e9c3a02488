// One HTTP measurement: autocannon for a fixed duration at a fixed number of connections,
// cycling through a pool of requests (different filter values each time), with every
// response's latency kept at full resolution and the target's memory sampled throughout.
import autocannon, { type Request, type Result } from 'autocannon';
import { cpuMeter, sampleRss } from './cpu.js';
import type { HttpRequestSpec } from './scenarios.js';
import { percentile } from './stats.js';

export interface HttpLoad {
  url: string;
  token: string;
  requests: HttpRequestSpec[];
  connections: number;
  durationS: number;
  /** Stops the load early when it settles (the replicas' change file being applied). */
  until?: Promise<unknown>;
  /** Counts the answers, and the seconds, only from when this settles (the whole run where it settles later). */
  countFrom?: Promise<unknown>;
  /** The process whose memory is sampled. */
  pid: number;
  /** CPU time so far of each backend of the target's database (PostgreSQL on this host): read before and after. */
  databaseCpu?: () => Promise<Map<number, number>>;
}

export interface Measured {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  rssPeakMb?: number;
  /** Mean bytes of a 2xx response, its status line and headers included (HTTP targets). */
  bytesPerResponse?: number;
  /** CPU time (user + system) of the process under test over the measurement, per answered request. */
  cpuUsPerRequest?: number;
  /** CPU time of the target's PostgreSQL backends over the measurement, per answered request. */
  dbCpuUsPerRequest?: number;
  /** Whether the answers were counted from when `countFrom` settled (false: the whole run). */
  countedFrom?: boolean;
  /** The first error's message, where the target reports one (the direct-SQL runner). */
  firstError?: string;
}

export async function measureHttp(load: HttpLoad): Promise<Measured> {
  const headers = { authorization: `Bearer ${load.token}`, 'content-type': 'application/json' };
  let next = 0;
  const latencies: number[] = [];
  let bytes = 0;
  const rss = sampleRss(load.pid);
  const cpu = await cpuMeter(load.pid, load.databaseCpu);
  const setupRequest = (request: Request) => {
    const spec = load.requests[next++ % load.requests.length]!;
    return { ...request, method: spec.method, path: spec.path, headers, body: spec.body };
  };
  const options = { url: load.url, connections: load.connections, pipelining: 1, duration: load.durationS, timeout: 10, requests: [{ setupRequest }] };
  // (With a callback autocannon returns its instance, whose events give each response's latency.)
  let countedFrom: number | undefined;
  let ended = false;
  load.countFrom?.then(() => {
    if (ended) return;
    countedFrom = performance.now();
    latencies.length = 0;
    bytes = 0;
  });
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(options, (error, result: Result) => (error ? reject(error) : resolve(result)));
    instance.on('response', (_client, status, responseBytes, ms) => {
      if (status < 200 || status >= 300) return;
      latencies.push(ms);
      bytes += responseBytes;
    });
    load.until?.finally(() => instance.stop()).catch(() => {});
  });
  ended = true;
  const seconds = countedFrom === undefined ? result.duration : (performance.now() - countedFrom) / 1000;
  const perRequest = await cpu.stop(result.requests.total);
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    rssPeakMb: rss.stop(),
    bytesPerResponse: latencies.length ? Math.round(bytes / latencies.length) : undefined,
    ...(load.countFrom && { countedFrom: countedFrom !== undefined }),
    ...perRequest,
  };
}
