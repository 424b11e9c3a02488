// `npm run bench -- --imports`, end to end at a tiny scale, so that it cannot rot: a
// 2,000-person bench database, the whole dataset loaded into an empty database and
// re-applied, a change file touching 1% of the people (20), the churn file, and the change
// file while searches run; each beside a raw COPY of its rows. Run as its own process, as
// the bench is (it pins itself to a core with taskset).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportRunResult } from '../../bench/imports/run.js';
import { runBenchCommand } from '../helpers/benchCommand.js';

const databaseUrl = process.env.DATABASE_URL || undefined;

describe.runIf(databaseUrl)('npm run bench -- --imports, at a tiny scale', () => {
  const name = `lookup_test_bench_imports_${Date.now().toString(36)}`;
  const work = mkdtempSync(join(tmpdir(), 'bench-imports-'));
  const results = join(work, 'results');
  let exitCode: number | null = null;
  let output = '';
  let result: ImportRunResult;

  beforeAll(async () => {
    // An earlier full report: the import run adds its section and keeps the rest.
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, 'latest.md'), '# Benchmark report, earlier\n\n## Targets\n\nkept\n');
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    const args = ['--imports', '--people', '2000', '--database-url', url.toString()];
    ({ exitCode, output } = await runBenchCommand([
      ...args,
      '--kinds',
      'getPerson,nameSubstring',
      '--samples',
      '50',
      '--out',
      results,
      '--work-dir',
      join(work, 'changes'),
    ]));
    if (exitCode === 0) result = JSON.parse(readFileSync(join(results, 'imports.json'), 'utf8')) as ImportRunResult;
  }, 300_000);

  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    for (const db of [name, `${name}_import`]) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
  });

  it('measures every file on its database, each beside a raw COPY, with positive figures', () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    expect(result.rows.map((r) => `${r.measurement} · ${r.databasePeople}`)).toEqual([
      'initial load · 0',
      'unchanged re-apply · 2000',
      'change · 2000',
      'change inverse · 2000',
      'churn · 2000',
      'churn inverse · 2000',
      'change while searching · 2000',
      'change inverse after searching · 2000',
    ]);
    for (const row of result.rows) {
      const what = `${row.measurement} · ${row.databasePeople}`;
      for (const figure of [row.records, row.seconds, row.recordsPerSecond, row.copySeconds, row.copyRecordsPerSecond]) expect(figure, what).toBeGreaterThan(0);
      if (process.platform === 'linux') expect(row.peakRssMb, what).toBeGreaterThan(0);
    }
    expect(result.databases).toEqual([{ name, people: 2000, companies: expect.any(Number) }]);
    expect(result.notes.filter((n) => n.startsWith('change: 20 people (1%)'))).toHaveLength(1);
  });

  it('times the searches while the change file is applied, against idle', () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    const { idle, during } = result.searches!;
    expect(idle.requests).toBeGreaterThan(0);
    expect(during.requests).toBeGreaterThan(0);
    expect(idle.p99).toBeGreaterThan(0);
    expect(during.p99).toBeGreaterThan(0);
  });

  it('writes its section into latest.md, with the goals, keeping the rest', () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    const markdown = readFileSync(join(results, 'latest.md'), 'utf8');
    expect(markdown).toContain('## Targets\n\nkept');
    expect(markdown).toMatch(/<!-- imports: [^\n]*-->\n## Import cost \(PostgreSQL\)\n\nFrom `npm run bench -- --imports`: run /);
    expect(markdown).toContain('<!-- /imports -->');
    expect(markdown).toContain('| File | database people | records | seconds | records/s | raw COPY records/s | import / COPY | peak RSS MB |');
    for (const goal of [
      'change and churn files: at least 20% of the raw COPY rate',
      'initial load: at least 35% of the raw COPY rate',
      'unchanged re-apply: at least 80% of the raw COPY rate',
      'initial load: at least 25,000 records/s',
      'import streams: peak RSS at most 256 MB (the whole dataset as one NDJSON file)',
      'unchanged re-apply: at least 100,000 records/s',
      'change file touching 1% of the people: applied in under 10 s',
      'searches while a change file is applied: p99 at most 2× idle',
    ])
      expect(markdown).toMatch(new RegExp(`${goal.replace(/[()×%]/g, '.')} — \\*\\*(met|not met)\\*\\*`));
  });
});
