// verifyWebhook: checks a delivery of the service's webhooks as the Standard Webhooks
// specification signs it (https://www.standardwebhooks.com), with Web Crypto only, so it
// runs in browsers, Node 20+, Deno, Bun and edge runtimes alike. The service signs
// `<webhook-id>.<webhook-timestamp>.<body>` with HMAC-SHA256 under the endpoint's secret
// (`whsec_<base64>`); while a secret is rotated it sends one signature per secret, and
// any one that matches will do.
import type { Change } from './changes.js';

/** One change of the feed, as a delivery carries it: the feed's own Change (ids and kinds only). */
export type WebhookChange = Change;

/** A delivery that passed: its id (the same on every retry), when it was signed, and its changes in feed order. */
export interface VerifiedWebhook {
  id: string;
  timestamp: Date;
  changes: WebhookChange[];
}

export type WebhookVerificationReason =
  | 'missing_header'
  | 'bad_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'bad_secret'
  | 'no_matching_signature'
  | 'bad_body';

/** Why a delivery was not accepted. Answer the delivery with a 4xx status (it is retried), and never act on its body. */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** The headers of a fetch Request, or of Node's `req.headers` (lower-case names). */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, either way: 5 minutes unless told (replays of an old delivery are refused). */
  toleranceSeconds?: number;
  /** Now, in milliseconds since the epoch (tests). */
  now?: () => number;
}

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Checks the delivery's signature and timestamp against `secret` (or any of several, while
 * you rotate), then parses its body. `body` is the request's raw body, exactly as
 * received: a body parsed and serialized again no longer matches its signature.
 */
export async function verifyWebhook(
  secret: string | readonly string[],
  headers: WebhookHeaders,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<VerifiedWebhook> {
  if (typeof body !== 'string' && !(body instanceof Uint8Array))
    throw new TypeError('verifyWebhook takes the raw body (a string or bytes), as received: not a parsed object');
  const id = header(headers, 'webhook-id');
  const stamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !stamp || !signatures)
    throw new WebhookVerificationError('missing_header', 'webhook-id, webhook-timestamp and webhook-signature are all required');
  const timestamp = checkTimestamp(stamp, options);
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed = new TextEncoder().encode(`${id}.${stamp}.${text}`);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  for (const candidate of secrets) {
    const key = await hmacKey(candidate);
    for (const signature of signatures.split(' ')) {
      const [version, value] = signature.split(',', 2);
      if (version !== 'v1' || !value) continue;
      const bytes = base64Bytes(value);
      if (bytes && (await crypto.subtle.verify('HMAC', key, bytes, signed))) return { id, timestamp, changes: parseChanges(text) };
    }
  }
  throw new WebhookVerificationError('no_matching_signature', 'no signature matches the secret: a wrong secret, or a body changed on the way');
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const found = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found.join(' ') : (found as string | undefined);
}

function checkTimestamp(stamp: string, options: VerifyWebhookOptions): Date {
  if (!/^\d{1,12}$/.test(stamp)) throw new WebhookVerificationError('bad_timestamp', 'webhook-timestamp is not a number of seconds');
  const seconds = Number(stamp);
  const now = (options.now ?? Date.now)() / 1000;
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (seconds < now - tolerance)
    throw new WebhookVerificationError('timestamp_too_old', 'webhook-timestamp is too old: a replayed delivery, or a clock far off');
  if (seconds > now + tolerance) throw new WebhookVerificationError('timestamp_too_new', 'webhook-timestamp is in the future: a clock far off');
  return new Date(seconds * 1000);
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  const bytes = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!bytes?.length) throw new WebhookVerificationError('bad_secret', 'the secret is not a whsec_<base64> signing secret');
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function parseChanges(text: string): WebhookChange[] {
  try {
    const parsed = JSON.parse(text) as { changes?: unknown };
    if (Array.isArray(parsed.changes)) return parsed.changes as WebhookChange[];
  } catch {}
  throw new WebhookVerificationError('bad_body', 'the signed body is not a delivery of changes');
}
