// N instances share the endpoints (PostgreSQL): two workers, each on a pool of its own and
// polling as the service does, while imports go on. Every change of every endpoint reaches
// its receiver exactly once (the receiver never fails here), in feed order, and each
// endpoint has one delivery in flight at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { useThrowawayDatabase } from '../helpers/databases.js';
import { WebhookReceiver } from '../helpers/webhookReceiver.js';
import { addEmployments, feedPositions, newEndpoint, TestClock, testWorker } from './worker.js';

describe.skipIf(!process.env.DATABASE_URL)('webhook workers in two instances on postgres', () => {
  const database = useThrowawayDatabase('postgres');
  const receivers: WebhookReceiver[] = [];
  let second: Database;
  beforeAll(async () => {
    second = await openDatabase({ databaseUrl: database.url, poolMax: 5 });
  });
  afterAll(async () => {
    await second?.close();
    for (const r of receivers) await r.stop();
  });

  it('deliver each change once, in order per endpoint', async () => {
    const { db } = database;
    const clock = new TestClock();
    const companies = [['acme-corp'], ['globex'], ['acme-corp', 'globex']];
    const endpoints = [];
    for (const scope of companies) {
      const receiver = await new WebhookReceiver().start();
      receiver.delayMs = 20;
      receivers.push(receiver);
      endpoints.push({ receiver, scope, ...(await newEndpoint(db, receiver, scope, clock)) });
    }
    // Both on the real clock from here: they poll as the service does.
    const workers = [
      testWorker(db, new TestClock(), { batchSize: 4, clock: undefined }),
      testWorker(second, new TestClock(), { batchSize: 4, clock: undefined }),
    ];
    for (const { worker } of workers) worker.start();
    try {
      for (let round = 0; round < 6; round++) {
        await addEmployments(db, 'acme-corp', 5);
        await addEmployments(db, 'globex', 3);
      }
      for (const e of endpoints) {
        const expected = await feedPositions(db, e.scope, e.start);
        await expect
          .poll(() => e.receiver.accepted.flatMap((r) => r.changes.map((c) => c.position)).length, { timeout: 20_000 })
          .toBeGreaterThanOrEqual(expected.length);
        expect(e.receiver.received.flatMap((r) => r.changes.map((c) => c.position))).toEqual(expected);
        expect(e.receiver.badSignatures).toEqual([]);
        expect(e.receiver.maxConcurrent, 'deliveries in flight at once to one endpoint').toBe(1);
      }
    } finally {
      for (const { worker } of workers) await worker.close();
    }
    // Both instances took part.
    expect(workers.every(({ observer }) => observer.attempts.length > 0)).toBe(true);
  }, 60_000);
});
