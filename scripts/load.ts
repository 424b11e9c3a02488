// `npm run load`: the service at saturation on loopback for a while (20 s by default,
// after a 5 s warm-up), with a mix of its three operations, and a verdict:
//   - no error responses (every answer 2xx, no connection errors or timeouts), and
//   - no memory growth: the server's live memory (heap and external, after a full garbage
//     collection) at the end of the run at most LOAD_MAX_LIVE_GROWTH_MB (10 MB) above
//     what it was after the warm-up. RSS is reported, not judged: it follows how far V8
//     lets the heap grow between collections, which says nothing of a leak.
// The rate limits are raised for the run (one credential at saturation would otherwise
// be answered 429 by design). Options: LOAD_SECONDS, LOAD_WARMUP_SECONDS,
// LOAD_CONNECTIONS, LOAD_MAX_LIVE_GROWTH_MB; DATABASE_URL to run on PostgreSQL (demo data
// is loaded if that database is empty), PGlite in memory otherwise.

import { fileURLToPath } from 'node:url';
import autocannon, { type Request } from 'autocannon';
import { demoCredentials } from '../server/demo/dataset.js';
import { type LiveMemory, startLoadTarget } from './load/server.js';

export interface LoadOptions {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  maxLiveGrowthMb: number;
  databaseUrl?: string;
}

export interface LoadReport {
  options: LoadOptions;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Heap and external memory after a full collection, and RSS then. */
  liveAfterWarmupMb: number;
  liveAfterMb: number;
  liveGrowthMb: number;
  rssAfterWarmupMb: number;
  rssAfterMb: number;
  passed: boolean;
  problems: string[];
}

const MB = 1024 * 1024;

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const target = await startLoadTarget({
    DEMO_DATA: 'true',
    APP_ENV: 'development',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });
  try {
    const token = demoCredentials[0]!.token;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const found = await fetch(`${target.url}/v1/persons/search`, { method: 'POST', headers, body: JSON.stringify({ limit: 5 }) });
    const personIds: string[] = ((await found.json()) as { persons: { id: string }[] }).persons.map((p) => p.id);
    if (!personIds.length) throw new Error('the demo data has no person to look up');
    const requests: Request[] = [
      { method: 'GET', path: '/v1/companies/acme-corp/hello', headers },
      { method: 'POST', path: '/v1/persons/search', headers, body: JSON.stringify({ lastName: 'ar', limit: 10 }) },
      { method: 'GET', path: `/v1/persons/${personIds[0]}`, headers },
      { method: 'POST', path: '/v1/persons/search', headers, body: JSON.stringify({ companyId: 'globex', limit: 20, offset: 5 }) },
      { method: 'GET', path: `/v1/persons/${personIds.at(-1)}?externalIdSystems=payroll`, headers },
    ];
    const blast = (seconds: number) => autocannon({ url: target.url, connections: options.connections, duration: seconds, timeout: 10, requests });

    await blast(options.warmupSeconds);
    const afterWarmup = await target.measureLiveMemory();
    const result = await blast(options.seconds);
    const after = await target.measureLiveMemory();

    const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0]));
    const live = (memory: LiveMemory) => (memory.heapUsed + memory.external) / MB;
    const growth = live(after) - live(afterWarmup);
    const problems: string[] = [];
    if (result.non2xx > 0) problems.push(`${result.non2xx} responses were not 2xx: ${JSON.stringify(statusCodes)}`);
    if (result.errors > 0) problems.push(`${result.errors} connection errors`);
    if (result.timeouts > 0) problems.push(`${result.timeouts} timeouts`);
    if (growth > options.maxLiveGrowthMb) problems.push(`live memory grew ${growth.toFixed(1)} MB after warm-up (bound ${options.maxLiveGrowthMb} MB)`);
    if (result.requests.total === 0) problems.push('no request completed');
    return {
      options,
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      statusCodes,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      liveAfterWarmupMb: Math.round(live(afterWarmup) * 10) / 10,
      liveAfterMb: Math.round(live(after) * 10) / 10,
      liveGrowthMb: Math.round(growth * 10) / 10,
      rssAfterWarmupMb: Math.round(afterWarmup.rss / MB),
      rssAfterMb: Math.round(after.rss / MB),
      passed: problems.length === 0,
      problems,
    };
  } finally {
    const code = await target.stop();
    // biome-ignore lint/correctness/noUnsafeFinally: an unclean stop fails the run even when the run itself succeeded
    if (code !== 0) throw new Error(`the server did not stop cleanly (exit ${code})`);
  }
}

const number = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await runLoad({
    seconds: number('LOAD_SECONDS', 20),
    warmupSeconds: number('LOAD_WARMUP_SECONDS', 5),
    connections: number('LOAD_CONNECTIONS', 16),
    maxLiveGrowthMb: number('LOAD_MAX_LIVE_GROWTH_MB', 10),
    databaseUrl: process.env.DATABASE_URL || undefined,
  });
  const { passed, problems, ...rest } = report;
  process.stdout.write(`${JSON.stringify(rest, null, 2)}\n${passed ? 'PASS' : `FAIL\n- ${problems.join('\n- ')}`}\n`);
  process.exit(passed ? 0 : 1);
}
