// A short run of `npm run load` (scripts/load.ts) inside the suite: the server at
// saturation for a few seconds answers every request 2xx, without connection errors or
// timeouts, and its live memory (after a full garbage collection) at the end stays within
// 10 MB of what it was after the warm-up. (RSS was the measure once, and failed CI with
// nothing leaking: V8 lets the heap grow a long way between collections.)
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type LiveMemory, measureLiveMemory } from '../../scripts/load/server.js';
import { type LoadReport, runLoad } from '../../scripts/load.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseUrl } from '../helpers/environment.js';

describe(`load, briefly (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  let database: ThrowawayDatabase | undefined;
  afterAll(() => database?.drop());

  it('answers every request 2xx at saturation, without memory growth', async () => {
    if (databaseUrl) database = await throwawayDatabase('postgres', { migrate: false });
    const report: LoadReport = await runLoad({ seconds: 4, warmupSeconds: 3, connections: 8, maxLiveGrowthMb: 10, databaseUrl: database?.url });
    expect(report.problems, JSON.stringify(report)).toEqual([]);
    expect(report.requests).toBeGreaterThan(20);
    expect(Object.keys(report.statusCodes)).toEqual(['200']);
  }, 120_000);
});

describe('the live memory measure of a load run', () => {
  // A process that makes 50 MB of garbage, then keeps 20 MB, when told to.
  const subject = `
    let kept = [];
    process.on('message', (message) => {
      if (message === 'churn') for (let i = 0; i < 50; i++) new Array(128 * 1024).fill(i);
      if (message === 'keep') kept = Array.from({ length: 20 }, (_, i) => new Array(128 * 1024).fill(i));
      if (message !== 'measure-live-memory') process.send('done');
    });`;

  it('sees memory kept alive, not garbage waiting for a collection', async () => {
    const probe = fileURLToPath(new URL('../../scripts/load/liveMemoryProbe.ts', import.meta.url));
    const child = fork('-e', [subject], { execArgv: ['--expose-gc', '--import', 'tsx', '--import', probe], stdio: 'ignore' });
    const tell = (message: string) =>
      new Promise<void>((resolve) => {
        child.once('message', () => resolve());
        child.send(message);
      });
    const live = (memory: LiveMemory) => (memory.heapUsed + memory.external) / 1024 / 1024;
    try {
      const start = live(await measureLiveMemory(child));
      await tell('churn');
      const afterGarbage = live(await measureLiveMemory(child));
      await tell('keep');
      const afterKeeping = live(await measureLiveMemory(child));
      expect(afterGarbage - start).toBeLessThan(2);
      expect(afterKeeping - afterGarbage).toBeGreaterThan(15);
    } finally {
      child.kill();
    }
  });
});
