// The worker inside the service, on each engine: started with it (WEBHOOKS_ENABLED), a
// change an import commits reaches a receiver on this machine well within a second, the
// counts and each endpoint's feed lag are on /metrics, and the worker stops with the
// service. WEBHOOKS_ENABLED=false starts none.
import { afterEach, describe, expect, it } from 'vitest';
import { smallDataset } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { WebhookReceiver } from '../helpers/webhookReceiver.js';
import { addEmployments, newEndpoint, TestClock } from './worker.js';

describe.each(engines)('webhooks in the service on %s', (engine) => {
  let server: TestServer | undefined;
  let receiver: WebhookReceiver | undefined;
  afterEach(async () => {
    await server?.close();
    await receiver?.stop();
    server = receiver = undefined;
  });

  it('delivers an import within a second of its commit, and shows it on /metrics', async () => {
    server = await startTestServer({ engine, records: smallDataset(), env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_POLL_INTERVAL_MS: '50' } });
    receiver = await new WebhookReceiver().start();
    const { db } = server.database;
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], new TestClock());
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const before = receiver.accepted.length;
      await addEmployments(db, 'acme-corp', 2);
      const committed = performance.now();
      await expect.poll(() => receiver!.accepted.length, { timeout: 5_000, interval: 5 }).toBe(before + 1);
      latencies.push(performance.now() - committed);
    }
    expect(Math.max(...latencies)).toBeLessThan(1_000);
    expect(receiver.badSignatures).toEqual([]);

    const scrape = async () => (await fetch(`${server!.url}/metrics`)).text();
    // The receiver answers before the worker records the outcome.
    await expect.poll(scrape).toMatch(/^webhook_deliveries_total\{outcome="delivered"\} 5$/m);
    const metrics = await scrape();
    expect(metrics).toMatch(/^webhook_deliveries_total\{outcome="failed"\} 0$/m);
    expect(metrics).toMatch(/^webhook_retries_total 0$/m);
    expect(metrics).toMatch(/^webhook_endpoints_disabled_total 0$/m);
    // The worker reads the lag every second or so; /metrics reads no database.
    await expect.poll(scrape, { timeout: 3_000 }).toContain(`webhook_feed_lag_seconds{endpoint="${endpoint.id}"} 0\n`);

    // A receiver that fails: the lag grows with the oldest undelivered change, and retries count.
    receiver.mode = 'fail';
    await addEmployments(db, 'acme-corp', 1);
    await expect.poll(() => receiver!.received.length, { timeout: 5_000 }).toBeGreaterThan(5);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const failing = await scrape();
    expect(failing).toMatch(/^webhook_deliveries_total\{outcome="failed"\} [1-9]/m);
    expect(failing).toMatch(/^webhook_retries_total [1-9]/m);
    const lag = new RegExp(`webhook_feed_lag_seconds\\{endpoint="${endpoint.id}"\\} ([0-9.]+)`).exec(failing);
    expect(Number(lag![1])).toBeGreaterThanOrEqual(1);
    // Closing the service stops the worker: nothing arrives after.
    await server.close();
    server = undefined;
    const seen = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.length).toBe(seen);
  });

  it('WEBHOOKS_ENABLED=false: no worker, no webhook metrics', async () => {
    server = await startTestServer({ engine, records: smallDataset(), env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_ENABLED: 'false' } });
    receiver = await new WebhookReceiver().start();
    const { db } = server.database;
    await newEndpoint(db, receiver, ['acme-corp'], new TestClock());
    await addEmployments(db, 'acme-corp', 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toEqual([]);
    expect(await (await fetch(`${server.url}/metrics`)).text()).not.toContain('webhook_');
  });
});
