// `npm run bench -- --replica`, end to end at a tiny scale, so that it cannot rot: its own
// primary and standby, 2,000 people, hello and two person kinds on the service reading
// from the standby beside the service reading from the primary, then the routing alone;
// 1 s per measurement. Run as its own process, as the bench is (it pins
// itself to a core with taskset).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FROM_PRIMARY, FROM_REPLICA, type ReplicaRunResult } from '../../bench/replicas/results.js';
import { runBenchCommand } from '../helpers/benchCommand.js';
import { describeReplication } from '../helpers/replicaSuite.js';

describeReplication('npm run bench -- --replica, at a tiny scale', () => {
  const work = mkdtempSync(join(tmpdir(), 'bench-replica-'));
  const results = join(work, 'results');
  let exitCode: number | null = null;
  let output = '';

  beforeAll(async () => {
    // An earlier full report: the replica run adds its section and keeps the rest.
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, 'latest.md'), '# Benchmark report, earlier\n\n## Targets\n\nkept\n');
    const args = ['--replica', '--replica-people', '2000', '--kinds', 'getPerson,nameSubstring', '--duration', '1', '--rounds', '1'];
    ({ exitCode, output } = await runBenchCommand([...args, '--warmup', '0', '--samples', '50', '--out', results]));
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('measures both services on every scenario, without an error', () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    const result = JSON.parse(readFileSync(join(results, 'replicas.json'), 'utf8')) as ReplicaRunResult;
    expect(new Set(result.comparison.map((m) => m.scenario))).toEqual(new Set(['hello', 'getPerson', 'nameSubstring']));
    for (const target of [FROM_PRIMARY, FROM_REPLICA]) expect(result.comparison.filter((m) => m.target === target)).toHaveLength(3);
    for (const { measured } of result.comparison) {
      expect(measured.requests).toBeGreaterThan(0);
      expect(measured.non2xx + measured.errors).toBe(0);
      expect(measured.cpuUsPerRequest).toBeGreaterThan(0);
    }
    expect(result.routing!.map((r) => r.label)).toEqual(['Get person', 'last name substring (3+ chars)']);
    for (const r of result.routing!) expect(r.primaryUs > 0 && r.routerUs > 0).toBe(true);
  });

  it('writes its section into latest.md, keeping the rest', () => {
    const markdown = readFileSync(join(results, 'latest.md'), 'utf8');
    expect(markdown).toContain('## Targets\n\nkept');
    expect(markdown).toMatch(/## Replicas \(PostgreSQL streaming replication\)\n\nFrom `npm run bench -- --replica`: run /);
  });
});
