// `npm run bench:start`: what the production start saves, side by side in one run. The
// service as `npm start` runs it (node with tsx's loader, TypeScript compiled on load)
// against the build (`node dist/server/main.js`), alternating A B, B A: cold start (spawn
// to the first successful hello), resident memory once idle after start, and peak
// resident memory under a short hello load. Both on the same database: PostgreSQL where
// --database-url is given (a database of your own; migrated by the first start), else
// each on a fresh in-memory PGlite (demo data on, so it also times loading that).
// Usage: tsx bench/startCost.ts [--rounds 5] [--load-seconds 5] [--database-url URL]
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from '../scripts/build.js';
import { demoCredentials } from '../server/demo/dataset.js';
import { measureHttp } from './loadHttp.js';
import { nodeFlagsOf } from './nodeFlags.js';
import { startTarget, type TargetSpec } from './processes.js';
import { rssKb } from './rss.js';
import { median, round } from './stats.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, 'load-seconds': { type: 'string', default: '5' }, 'database-url': { type: 'string' } },
});
const rounds = Number(values.rounds);
const loadSeconds = Number(values['load-seconds']);
const databaseUrl = values['database-url'];

const token = demoCredentials[0]!.token;
const env = {
  APP_ENV: 'development',
  DEMO_DATA: 'true',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
};
const ready = { path: '/v1/companies/acme-corp/hello', token };
const targets: TargetSpec[] = [
  { name: 'tsx (npm start)', argv: [process.execPath, '--import', 'tsx', `${root}server/main.ts`], env, ready },
  { name: 'built (npm run start:prod)', argv: [process.execPath, ...nodeFlagsOf('start:prod'), `${root}dist/server/main.js`], env, ready },
];

console.error('building dist/ ...');
build();
if (databaseUrl) {
  // Not measured: the first start on a database migrates it and loads the demo data.
  await (await startTarget(targets[1]!, undefined)).stop();
}

const samples: Record<string, { coldMs: number[]; idleMb: number[]; loadPeakMb: number[]; rps: number[]; cpuUs: number[] }> = Object.fromEntries(
  targets.map((t) => [t.name, { coldMs: [], idleMb: [], loadPeakMb: [], rps: [], cpuUs: [] }]),
);
for (let round_ = 0; round_ < rounds; round_++) {
  for (const target of round_ % 2 ? [...targets].reverse() : targets) {
    const running = await startTarget(target, undefined);
    try {
      await new Promise((r) => setTimeout(r, 2_000)); // settled: start-up garbage collected or not, as it would be
      const idleKb = rssKb(running.pid);
      const load = await measureHttp({
        url: running.url,
        token,
        requests: [{ method: 'GET', path: ready.path }],
        connections: 10,
        durationS: loadSeconds,
        pid: running.pid,
      });
      const sample = samples[target.name]!;
      sample.coldMs.push(running.coldStartMs);
      if (idleKb !== undefined) sample.idleMb.push(idleKb / 1024);
      if (load.rssPeakMb !== undefined) sample.loadPeakMb.push(load.rssPeakMb);
      sample.rps.push(load.rps);
      if (load.cpuUsPerRequest !== undefined) sample.cpuUs.push(load.cpuUsPerRequest);
      console.error(
        `round ${round_ + 1} ${target.name}: cold start ${Math.round(running.coldStartMs)} ms, idle RSS ${round(idleKb! / 1024)} MB, peak RSS under load ${load.rssPeakMb} MB, ${Math.round(load.rps)} req/s`,
      );
    } finally {
      await running.stop();
    }
  }
}

const [tsx, built] = targets.map((t) => samples[t.name]!);
const row = (label: string, a: number[], b: number[], unit: string) =>
  `| ${label} | ${round(median(a))} ${unit} | ${round(median(b))} ${unit} | ${Math.round((median(b) / median(a)) * 100)}% |`;
console.log(
  [
    `Start cost, ${databaseUrl ? 'PostgreSQL' : 'PGlite in memory with demo data'}, medians of ${rounds} alternating rounds (hello load: 10 connections, ${loadSeconds} s); load average (1 min) ${os.loadavg()[0]!.toFixed(2)} at the end:`,
    '',
    '| | tsx (npm start) | built (npm run start:prod) | built / tsx |',
    '|---|---:|---:|---:|',
    row('cold start (spawn → first 200)', tsx!.coldMs, built!.coldMs, 'ms'),
    row('RSS idle, 2 s after start', tsx!.idleMb, built!.idleMb, 'MB'),
    row('peak RSS under load', tsx!.loadPeakMb, built!.loadPeakMb, 'MB'),
    row('hello throughput', tsx!.rps, built!.rps, 'req/s'),
    row('hello CPU time per request', tsx!.cpuUs, built!.cpuUs, 'µs'),
  ].join('\n'),
);
