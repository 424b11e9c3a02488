// `npm run bench -- --tracing`, end to end at a tiny scale, so that it cannot rot: a
// 1,000-person bench database, hello and Get person on the service with traces off, on,
// and on with one request in ten sampled (exporting to the bench's own sink), 1 s per
// measurement; its section added to an earlier report, which it keeps. Run as its own
// process, as the bench is.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TracingRunResult } from '../../bench/tracing/run.js';
import { runBenchCommand } from '../helpers/benchCommand.js';

const databaseUrl = process.env.DATABASE_URL || undefined;

describe.runIf(databaseUrl)('npm run bench -- --tracing, at a tiny scale', () => {
  const name = `lookup_test_bench_tracing_${Date.now().toString(36)}`;
  const work = mkdtempSync(join(tmpdir(), 'bench-tracing-'));
  const results = join(work, 'results');
  let exitCode: number | null = null;
  let output = '';
  let result: TracingRunResult;

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, 'latest.md'), '# Benchmark report, earlier\n\n## Targets\n\nkept\n');
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    ({ exitCode, output } = await runBenchCommand([
      '--tracing',
      '--people',
      '1000',
      '--database-url',
      url.toString(),
      ...['--duration', '1', '--rounds', '1', '--warmup', '0', '--samples', '20', '--out', results],
    ]));
    if (exitCode === 0) result = JSON.parse(readFileSync(join(results, 'tracing.json'), 'utf8')) as TracingRunResult;
  }, 300_000);

  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('measures hello and Get person with traces off, on and sampled, every response a success, and the spans reached the sink', () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    const targets = ['service, traces off', 'service, traces on', 'service, traces on, 1 in 10 sampled'];
    expect(result.comparison.map((m) => `${m.scenario} · ${m.target}`).sort()).toEqual(
      ['getPerson', 'hello'].flatMap((scenario) => targets.map((target) => `${scenario} · ${target}`)).sort(),
    );
    for (const { measured } of result.comparison) {
      expect(measured.requests).toBeGreaterThan(0);
      expect(measured.non2xx + measured.errors).toBe(0);
    }
    expect(result.sink.batches).toBeGreaterThan(0);
    expect(result.sink.bytes).toBeGreaterThan(0);
  });

  it('adds its section to latest.md and keeps the rest', () => {
    const markdown = readFileSync(join(results, 'latest.md'), 'utf8');
    expect(markdown).toContain('## Targets\n\nkept');
    expect(markdown).toContain('## Tracing cost (OpenTelemetry traces on / off)');
    expect(markdown).toMatch(/\| hello \| [\d,]+ \| [\d,]+ \| \d+% \|/);
    // The sampled service's row: req/s, CPU µs per request, its ratio to off, p99.
    expect(markdown).toMatch(/\| hello \| [\d,]+ \| [\d,]+ \| \d+% \| [\d.]+ \|/);
  });
});
