// The bench, end to end at a tiny scale, so that it cannot rot: a 200-person PGlite
// dataset built through the import; hello on the service and the bare node:http
// reference; Get person, a name search and the worst case against direct SQL; 1 s per
// measurement. Run as its own process, as `npm run bench` is (it pins itself to a core
// with taskset).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../bench/report.js';
import { runBenchCommand } from '../helpers/benchCommand.js';

const work = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
let exitCode: number | null = null;
let output = '';
// One short measurement of each, after a second of warm-up: on a loaded host a cold PGlite
// target could otherwise answer nothing within a one-second window.
const tiny = ['--duration', '1', '--rounds', '1', '--warmup', '1', '--cold-starts', '1', '--samples', '50', '--budget', '180'];

beforeAll(async () => {
  ({ exitCode, output } = await runBenchCommand([
    '--no-postgres',
    '--pglite-people',
    '200',
    '--pglite-dir',
    join(work, 'pglite'),
    '--references',
    'bare',
    // Counted apart (instructions.slow.test.ts): under callgrind each target takes minutes.
    '--no-instructions',
    '--kinds',
    'getPerson,nameSubstring',
    '--credentials',
    'oneLarge',
    ...tiny,
    '--out',
    join(work, 'results'),
  ]));
}, 360_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run bench (tiny scale)', () => {
  it('finishes and writes the JSON and Markdown reports', () => {
    expect(exitCode, output).toBe(0);
    expect(existsSync(join(work, 'results/latest.md'))).toBe(true);
    const markdown = readFileSync(join(work, 'results/latest.md'), 'utf8');
    expect(markdown).toContain('## Targets');
    expect(markdown).toContain('## Person operations on PGlite (200 people)');
  });

  it('measured every target of every scenario, with successful responses only', () => {
    const report = JSON.parse(readFileSync(join(work, 'results/latest.json'), 'utf8')) as Report;
    const measured = report.summary.map((r) => `${r.scenario} · ${r.target}`).sort();
    expect(measured).toEqual(
      [
        'hello · service (PGlite)',
        'hello · bare node:http handler',
        'pglite:getPerson:oneLarge · service (PGlite)',
        'pglite:getPerson:oneLarge · direct SQL',
        'pglite:nameSubstring:oneLarge · service (PGlite)',
        'pglite:nameSubstring:oneLarge · direct SQL',
        'pglite:worstCase:every · service (PGlite)',
        'pglite:worstCase:every · direct SQL',
      ].sort(),
    );
    for (const row of report.summary) {
      expect(row.rps, `${row.scenario} · ${row.target}`).toBeGreaterThan(0);
      expect(row.p99).toBeGreaterThanOrEqual(row.p50);
      expect(row.non2xx + row.errors, `${row.scenario} · ${row.target}`).toBe(0);
    }
    expect(report.coldStartMs['service (PGlite)']).toBeGreaterThan(0);
    expect(report.raw.skipped).toEqual([]);
  });

  it('reports each target as met or not met', () => {
    const report = JSON.parse(readFileSync(join(work, 'results/latest.json'), 'utf8')) as Report;
    const goals = report.targets.map((t) => t.goal);
    expect(goals.some((g) => g.startsWith('hello: at least 80%'))).toBe(true);
    // CPU time per request comes from /proc: on Linux every HTTP target has it, and hello's goal in it.
    if (process.platform === 'linux') {
      expect(goals.some((g) => g.startsWith('hello: CPU time per request'))).toBe(true);
      for (const row of report.summary.filter((r) => r.target !== 'direct SQL'))
        expect(row.cpuUsPerRequest, `${row.scenario} · ${row.target}`).toBeGreaterThan(0);
    }
    expect(goals.some((g) => g.startsWith('Get person (one large company, PGlite'))).toBe(true);
    expect(goals.some((g) => g.includes('RSS under 150 MB'))).toBe(true);
    for (const t of report.targets) expect(typeof t.met, t.goal).toBe('boolean');
  });
});

// The access audit's cost, measured side by side with it on and off: PostgreSQL only (a
// second PGlite process could not open the same data directory), at a tiny scale.
const databaseUrl = process.env.DATABASE_URL || undefined;
describe.runIf(databaseUrl)('npm run bench on PostgreSQL: access audit on and off (tiny scale)', () => {
  const name = `lookup_test_bench_${Date.now().toString(36)}`;
  let report: Report;
  let code: number | null = null;
  let log = '';
  beforeAll(async () => {
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    ({ exitCode: code, output: log } = await runBenchCommand([
      '--no-pglite',
      '--people',
      '300',
      '--database-url',
      url.toString(),
      '--references',
      '',
      '--kinds',
      'getPerson,createdRange,firstPage,cursorDeep',
      '--credentials',
      'oneLarge,nameEmail',
      '--no-worst-case',
      ...tiny,
      '--out',
      join(work, 'results-postgres'),
    ]));
    if (code === 0) report = JSON.parse(readFileSync(join(work, 'results-postgres/latest.json'), 'utf8')) as Report;
  }, 240_000);
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('measures Get person and a search with the audit on and off, and beside the bare node:http floor, and reports the ratios as targets', () => {
    expect(code, log).toBe(0);
    const audited = report.summary
      .filter((r) => r.group === 'postgres')
      .map((r) => `${r.scenario} · ${r.target}`)
      .sort();
    expect(audited).toEqual(
      [
        'postgres:getPerson:oneLarge · service (PostgreSQL)',
        'postgres:getPerson:oneLarge · service (PostgreSQL, audit off)',
        'postgres:getPerson:oneLarge · direct SQL',
        'postgres:getPerson:oneLarge · node:http + findPersons',
        'postgres:createdRange:oneLarge · service (PostgreSQL)',
        'postgres:createdRange:oneLarge · service (PostgreSQL, audit off)',
        'postgres:createdRange:oneLarge · direct SQL',
        'postgres:createdRange:oneLarge · node:http + findPersons',
        ...['firstPage', 'cursorDeep'].flatMap((kind) =>
          ['service (PostgreSQL)', 'direct SQL', 'node:http + findPersons'].map((target) => `postgres:${kind}:oneLarge · ${target}`),
        ),
        // The credential of names and emails: Get person only of these kinds (and no audit-off twin).
        ...['service (PostgreSQL)', 'direct SQL', 'node:http + findPersons'].map((target) => `postgres:getPerson:nameEmail · ${target}`),
      ].sort(),
    );
    for (const row of report.summary) expect(row.non2xx + row.errors, `${row.scenario} · ${row.target}`).toBe(0);
    const target = report.targets.find((t) => t.goal.startsWith('Access audit (PostgreSQL'));
    // With the CPU time per request of the service and its database backends beside each ratio.
    expect(target?.measured).toMatch(
      /^Get person \(one large company\) \d+% \(CPU \d+%\); created range \(1 week\) \(one large company\) \d+% \(CPU \d+%\); lowest \d+%$/,
    );
    expect(typeof target?.met).toBe('boolean');
    // Issue #18's goals: each kind's rate as a share of direct SQL's, by its own bar.
    const shares = report.targets.filter((t) => t.goal.includes('of the direct-SQL rate'));
    expect(shares.map((t) => t.goal)).toEqual([
      'Get person, phone and personId (PostgreSQL, 300 people), every credential: at least 60% of the direct-SQL rate',
      'name, range and offset searches (PostgreSQL, 300 people), every credential: at least 80% of the direct-SQL rate',
    ]);
    expect(shares[0]?.measured).toMatch(
      /^Get person \(one large company\) \d+% \(floor \d+%\); Get person \(one large company, name and email\) \d+% \(floor \d+%\); lowest \d+%$/,
    );
    const markdown = readFileSync(join(work, 'results-postgres/latest.md'), 'utf8');
    expect(markdown).toContain('### Access audit cost on PostgreSQL');
    const cpu = '[\\d.,]+ \\+ [\\d.,]+ = [\\d.,]+';
    expect(markdown).toMatch(new RegExp(`\\| Get person \\| one large company \\|( [\\d.,%]+ \\|){7} ${cpu} \\| ${cpu} \\| \\d+% \\|`));
  });

  it('sets a deep cursor page against the first page, and the credential of names and emails against the full one, with bytes per response', () => {
    expect(code, log).toBe(0);
    const cursor = report.targets.find((t) => t.goal.startsWith('Search persons by cursor, deep in the company (one large company, PostgreSQL, 300 people)'));
    expect(cursor?.measured).toMatch(/^[\d.,]+ against [\d.,]+ ms \([\d.]+×\)$/);
    expect(typeof cursor?.met).toBe('boolean');
    const narrow = report.targets.find((t) => t.goal.startsWith('a credential of names and emails (one large company, PostgreSQL, 300 people)'));
    expect(narrow?.measured).toMatch(/^Get person [\d,]+ vs [\d,]+ req\/s \(\d+%\), [\d,]+ vs [\d,]+ bytes per response$/);
    expect(typeof narrow?.met).toBe('boolean');
    // Withheld means never sent: the narrow credential's answers are smaller.
    const bytes = (credential: string) =>
      report.summary.find((r) => r.scenario === `postgres:getPerson:${credential}` && r.target === 'service (PostgreSQL)')!.bytesPerResponse!;
    expect(bytes('nameEmail')).toBeLessThan(bytes('oneLarge'));
    // Every cursor page was a page (2xx), not a refused cursor.
    for (const row of report.summary.filter((r) => r.scenario.includes(':cursorDeep:'))) expect(row.non2xx, row.target).toBe(0);
  });

  it("gives every PostgreSQL target's CPU per request: its own process's and the database backends'", () => {
    expect(code, log).toBe(0);
    if (process.platform !== 'linux') return;
    for (const row of report.summary.filter((r) => r.group === 'postgres')) {
      const what = `${row.scenario} · ${row.target}`;
      expect(row.cpuUsPerRequest, what).toBeGreaterThan(0);
      expect(row.dbCpuUsPerRequest, what).toBeGreaterThan(0);
    }
  });
});
