// `npm run bench -- --imports`, end to end at a tiny scale, so that it cannot rot and keeps
// every goal's row: a 2,000-person bench database, the whole dataset loaded into an empty
// database and re-applied, a change file touching 1% of the people (20) and the churn file,
// each twice from a stated database state, beside their floors (raw COPY, stored rows
// alone), and each also with the change feed off; then the change file while searches run
// at a fixed rate; the feed's pages and webhook deliveries. Run as its own process, as the
// bench is (it pins itself to a core with taskset).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportRunResult } from '../../bench/imports/results.js';
import { DURING_WINDOWS } from '../../bench/imports/searches.js';
import { runBenchCommand } from '../helpers/benchCommand.js';

const databaseUrl = process.env.DATABASE_URL || undefined;
/** How an open loop's request fails when the host, not the service, is short of time. */
const OVERLOADED = ['503 service_unavailable', 'timed out'];

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
  }, 480_000);

  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    for (const db of [name, `${name}_import`]) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
  });

  it('measures every file on its database, each beside a raw COPY and its floor, with positive figures', () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    expect(result.rows.map((r) => `${r.measurement} ${r.repetition} · ${r.databasePeople}`)).toEqual([
      // The feed on first in the first turn, off first in the second.
      'initial load 1 · 0',
      'unchanged re-apply 1 · 2000',
      'initial load, feed off 1 · 0',
      'initial load, feed off 2 · 0',
      'initial load 2 · 0',
      'unchanged re-apply 2 · 2000',
      'change 1 · 2000',
      'change inverse 1 · 2000',
      'change, feed off 1 · 2000',
      'churn 1 · 2000',
      'churn inverse 1 · 2000',
      'churn, feed off 1 · 2000',
      'change, feed off 2 · 2000',
      'change 2 · 2000',
      'change inverse 2 · 2000',
      'churn, feed off 2 · 2000',
      'churn 2 · 2000',
      'churn inverse 2 · 2000',
      'change while searching 1 · 2000',
      'change inverse after searching 1 · 2000',
    ]);
    for (const row of result.rows) {
      const what = `${row.measurement} ${row.repetition}`;
      for (const figure of [row.records, row.seconds, row.recordsPerSecond, row.copySeconds, row.copyRecordsPerSecond]) expect(figure, what).toBeGreaterThan(0);
      if (process.platform === 'linux') expect(row.peakRssMb, what).toBeGreaterThan(0);
      // Every file but an inverse starts from the stated state; a change or churn file has its floor.
      if (!row.measurement.includes('inverse')) expect(row.state, what).toMatchObject({ vacuumedAndAnalyzed: true, autovacuumIdle: true, checkpointed: true });
      else expect(row.state, what).toBeUndefined();
      // Every file wrote WAL, counted around it beside the checkpoints it began.
      expect(row, what).toMatchObject({ walMb: expect.any(Number), checkpoints: expect.any(Number) });
      expect(row.walMb, what).toBeGreaterThan(0);
      // Each file a goal reads has its floor: the fastest of its measurements, each from the stated state.
      const floorTimes = { change: 3, churn: 3, 'change while searching': 3, 'initial load': 2, 'unchanged re-apply': 2 } as Record<string, number>;
      if (floorTimes[row.measurement]) {
        expect(row.storedAloneEach, what).toHaveLength(floorTimes[row.measurement]!);
        expect(row.storedAloneSeconds, what).toBe(Math.min(...row.storedAloneEach!));
        expect(row.storedAloneSeconds, what).toBeGreaterThan(0);
      } else expect(row.storedAloneSeconds, what).toBeUndefined();
    }
    expect(result.databases).toEqual([{ name, people: 2000, companies: expect.any(Number) }]);
    // A re-apply is set against its own turn's initial load's floor.
    for (const turn of [1, 2]) {
      const [load, again] = ['initial load', 'unchanged re-apply'].map((m) => result.rows.find((r) => r.measurement === m && r.repetition === turn)!);
      expect(again!.storedAloneEach).toEqual(load!.storedAloneEach);
    }
    // The bound on the whole-file loads: the same file's records checked alone, every one of them.
    const initial = result.rows.find((r) => r.measurement === 'initial load')!;
    expect(result.checksAlone).toEqual({ records: initial.records, workers: expect.any(Number), seconds: expect.any(Number) });
    expect(result.checksAlone!.seconds).toBeGreaterThan(0);
    expect(result.notes.filter((n) => n.startsWith('change: 20 people (1%)'))).toHaveLength(1);
  });

  it('times each kind of search at a fixed rate while the change file is applied, against idle at that rate', () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    const { idle, during, saturated, saturatedDuringChange, rateShare, windows } = result.searches!;
    expect(saturated.rps).toBeGreaterThan(0);
    // (The rate is a share of the lower of what the service kept idle and while a change applied: below saturation in both.)
    expect(saturatedDuringChange!.rps).toBeGreaterThan(0);
    // (Counted while the import's transaction was open, where it was seen so at this scale.)
    expect(saturatedDuringChange!.whileImportWrote).toEqual(expect.any(Boolean));
    expect(idle.rate).toBeCloseTo(Math.min(saturated.rps, saturatedDuringChange!.rps) * rateShare, 0);
    expect(windows).toBe(DURING_WINDOWS);
    expect(during.rate).toBe(idle.rate);
    // Every window from the stated state, as every measured file: the first's is its row's.
    expect(result.searches!.statesBetween).toHaveLength(DURING_WINDOWS - 1);
    for (const state of result.searches!.statesBetween!) expect(state).toMatchObject({ vacuumedAndAnalyzed: true, autovacuumIdle: true, checkpointed: true });
    // Where the slow answers arose: the service counted every answer the load generator did
    // (and the requests that failed, where it answered them).
    const { slowAnswers } = result.searches!;
    for (const [period, figures] of [
      ['idle', idle],
      ['during', during],
    ] as const) {
      const kinds = Object.values(figures.byKind);
      const answered = kinds.reduce((n, k) => n + k.answered, 0);
      expect(slowAnswers![period].client.answers).toBe(answered);
      // A request sent late is answered late, or fails: the load generator's own delay is within those.
      const failed = kinds.reduce((n, k) => n + k.failed, 0);
      expect(slowAnswers![period].sentLate).toBeGreaterThanOrEqual(0);
      expect(slowAnswers![period].sentLate).toBeLessThanOrEqual(slowAnswers![period].client.slow + failed);
      // The machine's own account of the period: its cores' shares, adding up to the whole.
      const host = slowAnswers![period].host!;
      expect(host.busy + host.idle + host.waitingForDisk).toBeCloseTo(1, 2);
      // What held the service's event loop: a period always has some delay.
      expect(slowAnswers![period].service.eventLoopMaxMs).toBeGreaterThan(0);
      if (kinds.every((k) => k.failed === 0)) expect(slowAnswers![period].service.answers).toBe(answered);
      else expect(slowAnswers![period].service.answers).toBeGreaterThanOrEqual(answered);
    }
    for (const figures of [idle, during]) {
      expect(Object.keys(figures.byKind)).toEqual(['getPerson', 'nameSubstring']);
      for (const kind of Object.values(figures.byKind)) {
        expect(kind.answered).toBeGreaterThan(0);
        expect(kind.p99).toBeGreaterThan(0);
        // A host loaded by other work may leave the service short of time: it then sheds a
        // request (503) or answers late, and the goal row says so. Never an error of its own
        // (500) or a refusal of what the bench asked (4xx).
        expect(Object.keys(kind.failedBy ?? {}).filter((reason) => !OVERLOADED.includes(reason))).toEqual([]);
        expect(kind.failed).toBe(Object.values(kind.failedBy ?? {}).reduce((n, m) => n + m, 0));
      }
    }
  });

  it("reads the feed's pages and times webhook deliveries", () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    expect(result.feedReads).toMatchObject({ limit: 1000, samples: 200 });
    expect(result.feedReads!.companyChanges).toBeGreaterThan(0);
    expect(result.feedReads!.p99Ms).toBeGreaterThan(0);
    expect(result.webhookDelivery).toMatchObject({ samples: 100, pollIntervalMs: 200 });
    expect(result.webhookDelivery!.p99Ms).toBeGreaterThan(0);
  });

  it('leaves the change feed on in the bench database, and no webhook endpoint or company of its own', async () => {
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const triggers = await client.query("SELECT tgname, tgenabled FROM pg_trigger WHERE tgname LIKE '%_feed_%' ORDER BY tgname");
      expect(triggers.rows.length).toBeGreaterThanOrEqual(7);
      for (const trigger of triggers.rows) expect(trigger.tgenabled, trigger.tgname).toBe('O');
      expect((await client.query('SELECT id FROM webhook_endpoints')).rows).toEqual([]);
      expect((await client.query("SELECT id FROM companies WHERE id = 'bench-webhooks'")).rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('applies its change files to copies of the bench database, and drops each copy after', async () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    expect(result.workingCopies).toBe(true);
    const url = new URL(databaseUrl!);
    url.pathname = '/postgres';
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${name}\\_%`]);
    await client.end();
    expect(rows).toEqual([]);
    expect(output).toContain('turn 1, the change file, feed on: on a fresh copy of the bench database');
    expect(output).toContain('turn 2, the churn file, feed off: on a fresh copy of the bench database');
  });

  it('keeps the autovacuum setting of the bench database as it found it', async () => {
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const { rows } = await client.query(
      "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND array_to_string(reloptions, ',') LIKE '%autovacuum%'",
    );
    await client.end();
    expect(rows).toEqual([]);
  });

  it('writes its section into latest.md, with the goals, keeping the rest', () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    const markdown = readFileSync(join(results, 'latest.md'), 'utf8');
    expect(markdown).toContain('## Targets\n\nkept');
    expect(markdown).toMatch(/<!-- imports: [^\n]*-->\n## Import cost \(PostgreSQL\)\n\nFrom `npm run bench -- --imports`: run /);
    expect(markdown).toContain('<!-- /imports -->');
    expect(markdown).toContain(
      '| File | turn | database people | records | seconds | records/s | raw COPY s | import / COPY | stored rows alone s | import / stored alone | WAL MB | checkpoints | peak RSS MB |',
    );
    expect(markdown).toContain('**State before each file.**');
    expect(markdown).toMatch(
      /while a change file applied, [\d.,]+ req\/s \(counted (over the [\d.]+ s its import's transaction was open|from the import's start: it ended before its transaction was seen open)\); /,
    );
    expect(markdown).toMatch(/Each window after the first began from the stated state too \(found: vacuumed and analysed, autovacuum idle, checkpoint done; /);
    expect(markdown).toMatch(
      /Answers over 100 ms, every kind: idle [\d,]+ of [\d,]+ by the load generator \([\d,]+ sent that late by the load generator itself\), [\d,]+ of [\d,]+ by the service; during the change /,
    );
    expect(markdown).toMatch(
      /The service's event loop, its longest delay, its garbage collections, its process's major page faults \(each a wait for the disk\) and the time its thread was ready but waited for a core: idle [\d.,]+ ms, [\d,]+ collections over 100 ms \([\d.]+ s of collection in all\), [\d,]+ major page faults, [\d.]+ s waiting for its core; during the change /,
    );
    expect(markdown).toContain('| File | turn | feed on s | feed off s | on / off |');
    expect(markdown).toContain('**Reading the feed:**');
    expect(markdown).toContain('**Webhook deliveries:**');
    expect(markdown).toContain(
      '| Kind | idle answers | idle p50 ms | idle p99 ms | during answers | during p50 ms | during p99 ms | p99 during / idle | failed |',
    );
    for (const goal of [
      'initial load: at least 35% of the rate of its stored rows alone (its rows written where they live)',
      'unchanged re-apply: at least 80% of the rate of its stored rows alone (its rows written where they live)',
      'change and churn files: at most 5× their stored rows alone',
      'searches at a fixed rate (50% of the throughput kept idle or while a change file applies, the lower) while a change file is applied: p99 at most 2× idle p99 at that rate, each kind',
      'import: peak RSS at most 230 MB, every file',
      'initial load: at least 25,000 records/s',
      'unchanged re-apply: at least 100,000 records/s',
      'change file touching 1% of the people: applied in under 10 s',
      'initial load with the change feed: at most 1.25× the same file without it, each turn',
      'change file with the change feed: at most 1.25× the same file without it, each turn',
      'churn file with the change feed: at most 1.25× the same file without it, each turn',
      'reading 1,000 changes at 2,000 people: p99 < 50 ms',
      "webhook delivery to a receiver on this machine within 1 s of the import's commit: p99",
      "each file's applications in this run agree within 25%",
    ])
      expect(markdown).toMatch(new RegExp(`- ${goal.replace(/[()×%]/g, '.')} — \\*\\*(met|not met)\\*\\*`));
    expect(markdown).not.toContain('20% of the raw COPY rate');
    expect(markdown).not.toContain('of the raw COPY rate');
    // No run before this one at 2,000 people: the comparison says so.
    expect(markdown).toContain('this run and the previous one at this scale agree within 25%, row by row — **not measured**');
  });
});
