// The webhook worker against a real receiver in this process, on each engine: every change
// delivered once and in order with a signature that verifies; failures retried under the
// same webhook-id with backoff, for 24 hours of the worker's clock, then the endpoint
// disabled (a log line, a metric); a hanging receiver timed out; a receiver that restarts;
// a worker stopped mid-delivery; a rotated secret; a replay; a redirect not followed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findEndpoint, listDeliveries } from '../../server/db/stores/webhooks.js';
import { decodeChangeCursor } from '../../server/domain/changeCursor.js';
import { enableEndpoint, replayEndpoint, rotateSecret } from '../../server/webhooks/endpoints.js';
import { DELIVERY_TIMEOUT_MS } from '../../server/webhooks/post.js';
import { RETRY_WINDOW_MS } from '../../server/webhooks/retrySchedule.js';
import { engines, useThrowawayDatabase } from '../helpers/databases.js';
import { WebhookReceiver } from '../helpers/webhookReceiver.js';
import { addEmployments, drain, endpointNow, feedPositions, newEndpoint, TestClock, testWorker } from './worker.js';

describe.each(engines)('webhook deliveries on %s', (engine) => {
  const database = useThrowawayDatabase(engine);
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterEach(async () => {
    await receiver.stop();
    await database.db.query('DELETE FROM webhook_endpoints');
  });

  it('delivers every change of its companies once, in feed order, in signed batches', async () => {
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp', 'globex'], clock);
    await addEmployments(db, 'acme-corp', 5);
    await addEmployments(db, 'secret-co', 2);
    await addEmployments(db, 'globex', 3);
    await addEmployments(db, 'acme-corp', 2);
    const { worker } = testWorker(db, clock, { batchSize: 3 });
    expect(await drain(worker)).toBe(4);

    const expected = await feedPositions(db, ['acme-corp', 'globex'], endpoint.start);
    expect(expected).toHaveLength(10);
    expect(receiver.badSignatures).toEqual([]);
    expect(receiver.accepted.flatMap((r) => r.changes.map((c) => c.position))).toEqual(expected);
    expect(receiver.accepted.map((r) => r.changes.length)).toEqual([3, 3, 3, 1]);
    expect(new Set(receiver.accepted.map((r) => r.id)).size).toBe(4);
    const [first] = receiver.accepted[0]!.changes;
    expect(first).toEqual({
      position: expected[0],
      kind: 'employee.created',
      companyId: 'acme-corp',
      employeeId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      personId: null,
      changedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(receiver.accepted[0]!.signatures).toEqual([expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/)]);
    expect((await endpointNow(db, endpoint.id)).deliveredPosition).toBe(String(decodeChangeCursor(expected.at(-1)!)));
  });

  it('only the kinds asked for', async () => {
    const { db } = database;
    const clock = new TestClock();
    await newEndpoint(db, receiver, ['acme-corp'], clock, ['employee.deleted']);
    await addEmployments(db, 'acme-corp', 2);
    const { worker } = testWorker(db, clock);
    expect(await drain(worker)).toBe(0);
    expect(receiver.received).toEqual([]);
  });

  it('retries a failing receiver with backoff under the same id and body, disables after 24 hours, and goes on once enabled', async () => {
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
    await addEmployments(db, 'acme-corp', 1);
    receiver.mode = 'fail';
    const { worker, logs, observer } = testWorker(db, clock);
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0); // not due yet
    const waits: number[] = [];
    let state = await endpointNow(db, endpoint.id);
    while (!state.disabledAt) {
      waits.push(state.nextAttemptAt.getTime() - clock.ms);
      clock.to(state.nextAttemptAt);
      expect(await worker.runOnce()).toBe(1);
      state = await endpointNow(db, endpoint.id);
    }
    // 1 s, 2 s, 4 s… (random 0.5: three quarters of each), doubling to an hour.
    expect(waits.slice(0, 4)).toEqual([750, 1500, 3000, 6000]);
    expect(Math.max(...waits)).toBe(2_700_000);
    expect(clock.ms - state.firstFailedAt!.getTime()).toBeGreaterThanOrEqual(RETRY_WINDOW_MS);
    expect(receiver.received.length).toBe(waits.length + 1);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(receiver.badSignatures).toEqual([]);
    expect(observer.disabled).toBe(1);
    expect(observer.retries).toBe(waits.length);
    expect(logs.lines().filter((l) => l.level === 50 && /webhook endpoint disabled/.test(l.msg))).toHaveLength(1);
    expect(state.disabledReason).toMatch(/every attempt failed for 24 hours \(last: HTTP 500\)/);

    clock.advance(3_600_000);
    expect(await worker.runOnce()).toBe(0);
    receiver.mode = 'ok';
    await enableEndpoint(db, endpoint.id, clock.now());
    expect(await drain(worker)).toBe(1);
    expect(receiver.accepted.map((r) => r.id)).toEqual([receiver.received[0]!.id]);
    const attempts = await listDeliveries(db, endpoint.id, 1000);
    expect(attempts[0]).toMatchObject({ outcome: 'delivered', status: 204, attempt: 1, changes: 1 });
    expect(attempts.filter((a) => a.outcome === 'failed')).toHaveLength(waits.length + 1);
  });

  it('carries its retries across a restart: the next worker goes on with the same delivery, attempt and window', async () => {
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
    await addEmployments(db, 'acme-corp', 1);
    receiver.mode = 'fail';
    const before = testWorker(db, clock);
    expect(await before.worker.runOnce()).toBe(1);
    await before.worker.close();
    const failed = await endpointNow(db, endpoint.id);
    clock.to(failed.nextAttemptAt);
    const after = testWorker(db, clock);
    expect(await after.worker.runOnce()).toBe(1);
    const again = await endpointNow(db, endpoint.id);
    expect([again.attempts, again.pendingId, again.firstFailedAt]).toEqual([2, failed.pendingId, failed.firstFailedAt]);
    expect((await listDeliveries(db, endpoint.id, 5)).map((d) => [d.attempt, d.deliveryId])).toEqual([
      [2, failed.pendingId],
      [1, failed.pendingId],
    ]);
  });

  it('times out a receiver that does not answer, and delivers the same batch when it does', async () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
    await addEmployments(db, 'acme-corp', 2);
    receiver.mode = 'hang';
    const { worker, observer } = testWorker(db, clock, { timeoutMs: 300 });
    const started = Date.now();
    expect(await worker.runOnce()).toBe(1);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(observer.attempts).toEqual(['timeout']);
    receiver.mode = 'ok';
    clock.to((await endpointNow(db, endpoint.id)).nextAttemptAt);
    expect(await drain(worker)).toBe(1);
    expect(receiver.received.map((r) => r.id)).toEqual([receiver.received[0]!.id, receiver.received[0]!.id]);
    expect(receiver.accepted[0]!.changes).toHaveLength(2);
  });

  it('keeps its place while the receiver restarts', async () => {
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
    await addEmployments(db, 'acme-corp', 1);
    const { worker, observer } = testWorker(db, clock);
    expect(await drain(worker)).toBe(1);
    await receiver.stop();
    await addEmployments(db, 'acme-corp', 1);
    expect(await worker.runOnce()).toBe(1);
    expect(observer.attempts).toEqual(['delivered', 'unreachable']);
    await receiver.start();
    clock.to((await endpointNow(db, endpoint.id)).nextAttemptAt);
    expect(await drain(worker)).toBe(1);
    expect(receiver.accepted.flatMap((r) => r.changes.map((c) => c.position))).toEqual(await feedPositions(db, ['acme-corp'], endpoint.start));
  });

  it('a worker stopped mid-delivery gives the batch back, and another delivers it', async () => {
    const { db } = database;
    const clock = new TestClock();
    await newEndpoint(db, receiver, ['acme-corp'], clock);
    await addEmployments(db, 'acme-corp', 1);
    receiver.mode = 'hang';
    const first = testWorker(db, clock, { timeoutMs: 5_000 });
    const round = first.worker.runOnce();
    await expect.poll(() => receiver.received.length).toBe(1);
    await first.worker.close();
    expect(await round).toBe(0);
    receiver.mode = 'ok';
    const second = testWorker(db, clock);
    expect(await drain(second.worker)).toBe(1);
    // At least once: the receiver saw it twice, under one id, and accepted it once.
    expect(receiver.received.map((r) => r.id)).toEqual([receiver.received[0]!.id, receiver.received[0]!.id]);
    expect(receiver.accepted).toHaveLength(1);
  });

  it('signs with the old and the new secret while a rotation overlaps, then with the new one', async () => {
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
    const old = endpoint.secret;
    const { secret, previousValidUntil } = await rotateSecret(db, endpoint.id, 3_600_000, clock.now());
    expect(previousValidUntil!.getTime()).toBe(clock.ms + 3_600_000);
    await addEmployments(db, 'acme-corp', 1);
    const { worker } = testWorker(db, clock);
    receiver.secrets = [old];
    expect(await drain(worker)).toBe(1);
    receiver.secrets = [secret];
    clock.advance(3_600_001);
    await addEmployments(db, 'acme-corp', 1);
    expect(await drain(worker)).toBe(1);
    expect(receiver.badSignatures).toEqual([]);
    expect(receiver.received.map((r) => r.signatures.length)).toEqual([2, 1]);
  });

  it('replays from a position: the changes after it again, in order', async () => {
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
    await addEmployments(db, 'acme-corp', 4);
    const { worker } = testWorker(db, clock);
    expect(await drain(worker)).toBe(1);
    const positions = await feedPositions(db, ['acme-corp'], endpoint.start);
    await replayEndpoint(db, endpoint.id, decodeChangeCursor(positions[1]!)!, clock.now());
    expect(await drain(worker)).toBe(1);
    expect(receiver.accepted.map((r) => r.changes.map((c) => c.position))).toEqual([positions, positions.slice(2)]);
    expect(receiver.accepted[1]!.id).not.toBe(receiver.accepted[0]!.id);
  });

  it('a delivery in flight when the endpoint is replayed records nothing: the cursor stays where the replay put it', async () => {
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
    await addEmployments(db, 'acme-corp', 3);
    const positions = await feedPositions(db, ['acme-corp'], endpoint.start);
    receiver.mode = 'hang';
    const { worker } = testWorker(db, clock, { timeoutMs: 1_000 });
    const round = worker.runOnce();
    await expect.poll(() => receiver.received.length).toBe(1);
    await replayEndpoint(db, endpoint.id, decodeChangeCursor(positions[0]!)!, clock.now());
    expect(await round).toBe(0);
    const state = await endpointNow(db, endpoint.id);
    expect([state.deliveredPosition, state.pendingId, state.attempts]).toEqual([String(decodeChangeCursor(positions[0]!)), null, 0]);
    expect(await listDeliveries(db, endpoint.id, 10)).toEqual([]);
    receiver.mode = 'ok';
    expect(await drain(worker)).toBe(1);
    expect(receiver.accepted[0]!.changes.map((c) => c.position)).toEqual(positions.slice(1));
  });

  it('follows no redirect: a 3xx is a failed attempt', async () => {
    const { db } = database;
    const clock = new TestClock();
    const elsewhere = await new WebhookReceiver().start();
    try {
      const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
      receiver.mode = { redirectTo: elsewhere.url };
      await addEmployments(db, 'acme-corp', 1);
      const { worker, observer } = testWorker(db, clock);
      expect(await worker.runOnce()).toBe(1);
      expect(observer.attempts).toEqual(['failed']);
      expect(elsewhere.received).toEqual([]);
      expect((await listDeliveries(db, endpoint.id, 5))[0]).toMatchObject({ outcome: 'failed', status: 302 });
    } finally {
      await elsewhere.stop();
    }
  });

  it('disables an endpoint whose place the feed has pruned, rather than skip changes', async () => {
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
    await addEmployments(db, 'acme-corp', 2);
    const [{ head }] = (await db.query<{ head: string }>('SELECT max(position)::text AS head FROM changes')) as [{ head: string }];
    await db.query('UPDATE change_feed_pruned SET through = $1', [head]);
    try {
      const { worker, observer, logs } = testWorker(db, clock);
      expect(await worker.runOnce()).toBe(0);
      expect(receiver.received).toEqual([]);
      expect(observer.disabled).toBe(1);
      expect((await endpointNow(db, endpoint.id)).disabledReason).toMatch(/^the feed was pruned past its position \(CHANGES_RETENTION\)/);
      expect(logs.text()).toMatch(/webhook endpoint disabled: the feed was pruned/);
      await expect(replayEndpoint(db, endpoint.id, 1n, clock.now())).rejects.toThrow(/older than the feed keeps/);
    } finally {
      await db.query('UPDATE change_feed_pruned SET through = 0');
    }
  });

  it('checks the target again at each delivery: a loopback target is refused without WEBHOOK_ALLOW_PRIVATE_TARGETS', async () => {
    const { db } = database;
    const clock = new TestClock();
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], clock);
    await addEmployments(db, 'acme-corp', 1);
    const { worker, observer, logs } = testWorker(db, clock, { allowPrivateTargets: false });
    expect(await worker.runOnce()).toBe(1);
    expect(observer.attempts).toEqual(['refused']);
    expect(receiver.received).toEqual([]);
    expect(logs.text()).toMatch(/target must be an https/);
    expect((await findEndpoint(db, endpoint.id))!.attempts).toBe(1);
  });
});
