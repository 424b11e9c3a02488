// The webhook worker's spans, with traces on: one root span per delivery attempt, named
// `webhook delivery`, with the endpoint, the delivery id, the attempt, the number of
// changes and the outcome, and the statements it ran as its children (never a value).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDataset } from '../fixtures/small.js';
import { type OtlpReceiver, startOtlpReceiver } from '../helpers/otlpReceiver.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { WebhookReceiver } from '../helpers/webhookReceiver.js';
import { addEmployments, newEndpoint, TestClock } from './worker.js';

const INTERNAL = 1;

describe('webhook delivery spans', () => {
  let otlp: OtlpReceiver;
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    receiver = await new WebhookReceiver().start();
    server = await startTestServer({
      records: smallDataset(),
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_POLL_INTERVAL_MS: '50', OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '100' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.stop();
    await otlp?.close();
  });

  it('a root span per attempt, its statements as children', async () => {
    const { db } = server.database;
    const endpoint = await newEndpoint(db, receiver, ['acme-corp'], new TestClock());
    await addEmployments(db, 'acme-corp', 2);
    await expect.poll(() => receiver.accepted.length, { timeout: 10_000 }).toBe(1);
    const spans = await otlp.waitFor((all) => all.some((s) => s.name === 'webhook delivery'));
    const delivery = spans.find((s) => s.name === 'webhook delivery')!;
    expect(delivery).toMatchObject({
      parentSpanId: '',
      kind: INTERNAL,
      attributes: {
        'webhook.endpoint.id': endpoint.id,
        'webhook.delivery.id': receiver.accepted[0]!.id,
        'webhook.attempt': 1,
        'webhook.changes': 2,
        'webhook.outcome': 'delivered',
        'http.response.status_code': 204,
      },
    });
    // Reading the batch, fixing it under its id, recording the outcome.
    await otlp.waitFor((all) => all.filter((s) => s.parentSpanId === delivery.spanId).length >= 3);
    const children = otlp.spans.filter((s) => s.parentSpanId === delivery.spanId);
    expect(children.every((s) => s.traceId === delivery.traceId && s.attributes['db.system.name'] === 'postgresql')).toBe(true);
    // The polling that found nothing to do made no span.
    expect(otlp.spans.filter((s) => s.parentSpanId === '' && s.name !== 'webhook delivery' && !/^(GET|POST|HTTP)/.test(s.name))).toEqual([]);
  });
});
