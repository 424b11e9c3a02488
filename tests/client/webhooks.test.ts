// verifyWebhook (the client's drafts entry) against signatures the service makes
// (server/domain/webhookSigning.ts): two implementations of Standard Webhooks, one with
// node:crypto and one with Web Crypto, that must agree. The worker's tests check it on
// real deliveries (tests/webhooks/).
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../client/src/drafts.js';
import { newWebhookSecret, signWebhook } from '../../server/domain/webhookSigning.js';

const body = JSON.stringify({
  changes: [{ position: 'ZjE', kind: 'employee.created', companyId: 'acme-corp', employeeId: null, personId: null, changedAt: '2026-01-01T00:00:00.000Z' }],
});
const id = 'msg_0123456789abcdef';
const now = 1_790_000_000;
const at = { now: () => now * 1000 };

function delivery(secrets: string[], timestamp = now, text = body) {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secrets, id, timestamp, text) };
}

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => expect.fail('accepted'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe('verifyWebhook', () => {
  const secret = newWebhookSecret();

  it('accepts a delivery signed with its secret, from Node headers, fetch Headers or bytes', async () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const verified = await verifyWebhook(secret, delivery([secret]), body, at);
    expect(verified).toEqual({ id, timestamp: new Date(now * 1000), changes: JSON.parse(body).changes });
    expect((await verifyWebhook(secret, new Headers(delivery([secret])), new TextEncoder().encode(body), at)).id).toBe(id);
    const upper = Object.fromEntries(Object.entries(delivery([secret])).map(([k, v]) => [k.toUpperCase(), v]));
    expect((await verifyWebhook(secret, upper, body, at)).id).toBe(id);
  });

  it('refuses a tampered body, id or timestamp, and another secret', async () => {
    const headers = delivery([secret]);
    expect(await refusal(verifyWebhook(secret, headers, body.replace('acme-corp', 'acme-corq'), at))).toBe('no_matching_signature');
    expect(await refusal(verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_other' }, body, at))).toBe('no_matching_signature');
    expect(await refusal(verifyWebhook(secret, { ...headers, 'webhook-timestamp': String(now - 1) }, body, at))).toBe('no_matching_signature');
    expect(await refusal(verifyWebhook(newWebhookSecret(), headers, body, at))).toBe('no_matching_signature');
    expect(await refusal(verifyWebhook(secret, { ...headers, 'webhook-signature': 'v2,abc v1,!!!' }, body, at))).toBe('no_matching_signature');
  });

  it('refuses a timestamp more than five minutes off, either way, and a missing header', async () => {
    expect(await refusal(verifyWebhook(secret, delivery([secret], now - 301), body, at))).toBe('timestamp_too_old');
    expect(await refusal(verifyWebhook(secret, delivery([secret], now + 301), body, at))).toBe('timestamp_too_new');
    expect((await verifyWebhook(secret, delivery([secret], now - 299), body, at)).id).toBe(id);
    expect(await refusal(verifyWebhook(secret, delivery([secret], now - 3600), body, { ...at, toleranceSeconds: 60 }))).toBe('timestamp_too_old');
    const { 'webhook-signature': _, ...unsigned } = delivery([secret]);
    expect(await refusal(verifyWebhook(secret, unsigned, body, at))).toBe('missing_header');
    expect(await refusal(verifyWebhook(secret, { ...delivery([secret]), 'webhook-timestamp': '12e3' }, body, at))).toBe('bad_timestamp');
  });

  it('accepts either secret of a rotation: the delivery carries a signature for each', async () => {
    const next = newWebhookSecret();
    const headers = delivery([next, secret]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect((await verifyWebhook(secret, headers, body, at)).id).toBe(id);
    expect((await verifyWebhook(next, headers, body, at)).id).toBe(id);
    expect((await verifyWebhook([newWebhookSecret(), next], headers, body, at)).id).toBe(id);
    // Once the overlap ends only the new secret signs: the old one no longer verifies.
    expect(await refusal(verifyWebhook(secret, delivery([next]), body, at))).toBe('no_matching_signature');
  });

  it('says what is wrong with its arguments', async () => {
    expect(await refusal(verifyWebhook('whsec_', delivery([secret]), body, at))).toBe('bad_secret');
    await expect(verifyWebhook(secret, delivery([secret]), JSON.parse(body), at)).rejects.toThrow(/raw body/);
    const notChanges = '{"hello":1}';
    expect(await refusal(verifyWebhook(secret, delivery([secret], now, notChanges), notChanges, at))).toBe('bad_body');
  });
});
