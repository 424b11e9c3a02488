// What `npm run webhooks` changes, each checked before anything is written: a new
// endpoint (its target checked as a delivery would check it), a secret rotated with an
// overlap, a replay from a feed position, an endpoint enabled again.
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/engines/database.js';
import { unknownCompanies } from '../db/stores/credentials.js';
import { findEndpoint, insertEndpoint, latestPosition, listEndpoints, prunedThrough, replaceSecret, restartEndpoint } from '../db/stores/webhooks.js';
import { newWebhookSecret } from '../domain/webhookSigning.js';
import { resolveTarget, TargetRefused, targetUrl } from './targets.js';

/** A change the command refuses, in one line; nothing was written. */
export class WebhookChangeRefused extends Error {}

/** A rotation's old secret signs beside the new one for at most this long. */
export const MAX_SECRET_OVERLAP_MS = 7 * 86_400_000;
export const DEFAULT_SECRET_OVERLAP_MS = 86_400_000;

export async function addEndpoint(
  db: Database,
  request: { url: string; companies: string[]; events: string[] | null; allowPrivateTargets: boolean; now?: Date },
): Promise<{ id: string; secret: string; url: string }> {
  let url: URL;
  try {
    url = targetUrl(request.url, request.allowPrivateTargets);
    await resolveTarget(url, request.allowPrivateTargets);
  } catch (error) {
    if (error instanceof TargetRefused) throw new WebhookChangeRefused(error.message);
    throw error;
  }
  const unknown = await unknownCompanies(db, request.companies);
  if (unknown.length) throw new WebhookChangeRefused(`unknown companies: ${unknown.join(', ')} (import them first)`);
  const same = (await listEndpoints(db)).find((e) => e.url === url.href);
  if (same)
    throw new WebhookChangeRefused(
      `${url.href} is already endpoint ${same.id}: remove it first, or rotate its secret (npm run webhooks -- rotate-secret ${same.id})`,
    );
  const id = randomUUID();
  const secret = newWebhookSecret();
  await insertEndpoint(db, { id, url: url.href, companies: request.companies, events: request.events, secret, now: request.now ?? new Date() });
  return { id, secret, url: url.href };
}

/** A new secret; the current one keeps signing beside it for `overlapMs` (0: it stops now). */
export async function rotateSecret(
  db: Database,
  id: string,
  overlapMs: number,
  now = new Date(),
): Promise<{ secret: string; previousValidUntil: Date | null }> {
  const secret = newWebhookSecret();
  const previousValidUntil = overlapMs > 0 ? new Date(now.getTime() + overlapMs) : null;
  if (!(await replaceSecret(db, id, secret, previousValidUntil))) throw unknownEndpoint(id);
  return { secret, previousValidUntil };
}

/**
 * The endpoint delivers the changes after `position` again (a feed position, decoded),
 * enabled if it was disabled. Refused past the feed's last change, and before its oldest
 * retained one: those changes are gone (the consumer re-syncs instead).
 */
export async function replayEndpoint(db: Database, id: string, position: bigint, now = new Date()): Promise<void> {
  if (!(await findEndpoint(db, id))) throw unknownEndpoint(id);
  const latest = BigInt(await latestPosition(db));
  if (position > latest) throw new WebhookChangeRefused('--from is past the last change the feed holds: that position was not given by this database');
  if (position < BigInt(await prunedThrough(db)))
    throw new WebhookChangeRefused('--from is older than the feed keeps (CHANGES_RETENTION): those changes are gone; the consumer must re-sync');
  await restartEndpoint(db, id, now, position.toString());
}

/** A disabled endpoint delivers again, from the batch it stopped at. */
export async function enableEndpoint(db: Database, id: string, now = new Date()): Promise<void> {
  const endpoint = await findEndpoint(db, id);
  if (!endpoint) throw unknownEndpoint(id);
  if (!endpoint.disabledAt) throw new WebhookChangeRefused(`endpoint ${id} is not disabled`);
  await restartEndpoint(db, id, now);
}

export function unknownEndpoint(id: string): WebhookChangeRefused {
  return new WebhookChangeRefused(`unknown endpoint ${id} (npm run webhooks -- list shows them)`);
}
