// Webhook signatures as the Standard Webhooks specification makes them
// (https://www.standardwebhooks.com): a secret `whsec_<base64 of the key>`, and for each
// delivery `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one
// signature per secret in force, separated by spaces (the old and the new one while a
// rotation overlaps: docs/decisions/0023-webhooks.md). The client's verifyWebhook
// (client/src/webhooks.ts) checks them with Web Crypto.
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: as many as the HMAC-SHA256 key can use. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The key a secret stands for: its base64 part, decoded. */
function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header's value: `v1,<signature>` for each secret, in the order given. */
export function signWebhook(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets.map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`).join(' ');
}
