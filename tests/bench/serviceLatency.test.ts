// The import bench counts the service's slow answers from its own /metrics, beside the load
// generator's: each answered search is counted once, and the slow ones by the histogram's
// bucket bound.
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { majorFaults, runQueueWaitSeconds } from '../../bench/cpu.js';
import { between, clientTally, SLOW_ANSWER_SECONDS, serviceAnswers, tallyOf } from '../../bench/imports/serviceLatency.js';
import { smallDataset, tokens } from '../fixtures/small.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ records: smallDataset() });
});
afterAll(() => server?.close());

it('counts each answer the service gave between two reads of its /metrics', async () => {
  const before = await serviceAnswers(server.url);
  for (let i = 0; i < 3; i++) {
    const res = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'dur' } });
    expect(res.status).toBe(200);
  }
  const answered = between(before, await serviceAnswers(server.url));
  expect(answered.answers).toBe(3);
  expect(answered.slow).toBeGreaterThanOrEqual(0);
  expect(answered.slow).toBeLessThanOrEqual(3);
  // What held its event loop meanwhile: its longest delay, and its collections' pauses.
  expect(answered.eventLoopMaxMs).toBeGreaterThan(0);
  expect(answered.collectionSeconds).toBeGreaterThanOrEqual(0);
  expect(answered.slowCollections).toBeGreaterThanOrEqual(0);
  // The bound the slow answers are read at is one of the service's buckets.
  const metrics = await (await fetch(new URL('/metrics', server.url))).text();
  expect(metrics).toMatch(new RegExp(`^http_request_duration_seconds_bucket\\{[^}]*le="${SLOW_ANSWER_SECONDS}"[^}]*\\} \\d+$`, 'm'));
});

it('reads the answers and collections over the bound, whatever the label order, the operational routes left out', () => {
  const metrics = [
    '# TYPE http_request_duration_seconds histogram',
    `http_request_duration_seconds_bucket{le="0.05",route="searchPersons"} 5`,
    `http_request_duration_seconds_bucket{le="${SLOW_ANSWER_SECONDS}",route="searchPersons"} 7`,
    `http_request_duration_seconds_bucket{route="getPerson",le="${SLOW_ANSWER_SECONDS}"} 2`,
    'http_request_duration_seconds_count{route="searchPersons"} 10',
    'http_request_duration_seconds_count{route="getPerson"} 2',
    `http_request_duration_seconds_bucket{le="${SLOW_ANSWER_SECONDS}",route="/metrics"} 0`,
    'http_request_duration_seconds_count{route="/metrics"} 4',
    'http_requests_total{route="searchPersons",method="POST",status="200"} 10',
    'nodejs_eventloop_lag_max_seconds 0.1505',
    `nodejs_gc_duration_seconds_bucket{le="${SLOW_ANSWER_SECONDS}",kind="minor"} 40`,
    `nodejs_gc_duration_seconds_bucket{le="${SLOW_ANSWER_SECONDS}",kind="major"} 1`,
    'nodejs_gc_duration_seconds_sum{kind="minor"} 0.25',
    'nodejs_gc_duration_seconds_sum{kind="major"} 0.5',
    'nodejs_gc_duration_seconds_count{kind="minor"} 40',
    'nodejs_gc_duration_seconds_count{kind="major"} 3',
  ].join('\n');
  expect(tallyOf(metrics)).toEqual({
    answers: 12,
    slow: 3,
    eventLoopMaxMs: 150.5,
    slowCollections: 2,
    collectionSeconds: 0.75,
    majorFaults: 0,
    waitedForCoreSeconds: 0,
  });
  expect(clientTally([5, 99.9, 100, 100.1, 250])).toEqual({ answers: 5, slow: 2 });
});

it("reads a process's major page faults from /proc, as the process counts them itself", () => {
  if (process.platform !== 'linux') return;
  const before = process.resourceUsage().majorPageFault;
  const read = majorFaults(process.pid)!;
  expect(read).toBeGreaterThanOrEqual(before);
  expect(read).toBeLessThanOrEqual(process.resourceUsage().majorPageFault);
  // A process that is gone: nothing rather than a wrong figure.
  expect(majorFaults(2 ** 22 + 1)).toBeUndefined();
});

it('reads the time a thread waited for a core: two processes spinning on one core each wait', async () => {
  if (process.platform !== 'linux' || spawnSync('taskset', ['--version']).status !== 0) return;
  const core = String(os.cpus().length - 1);
  // Each spins for a second, on the same core; the first then idles until killed, to be read.
  const spin = (idleAfter: boolean) =>
    spawn('taskset', [
      '-c',
      core,
      process.execPath,
      '-e',
      `const end = Date.now() + 1000; while (Date.now() < end); ${idleAfter ? 'setTimeout(() => {}, 60000);' : ''}`,
    ]);
  const first = spin(true);
  const second = spin(false);
  try {
    await new Promise((resolve) => second.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // taskset execs node: the child's pid is node's.
    expect(runQueueWaitSeconds(first.pid!)).toBeGreaterThan(0.2);
  } finally {
    first.kill();
  }
  expect(runQueueWaitSeconds(2 ** 22 + 1)).toBeUndefined();
});
