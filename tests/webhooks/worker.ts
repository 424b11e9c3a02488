// What the webhook tests share: a worker on a test's clock, changes made by real imports,
// and the feed's positions to compare deliveries with.
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../server/db/engines/database.js';
import { findEndpoint, type WebhookEndpoint } from '../../server/db/stores/webhooks.js';
import { encodeChangeCursor } from '../../server/domain/changeCursor.js';
import { importRecords } from '../../server/importing/index.js';
import { addEndpoint } from '../../server/webhooks/endpoints.js';
import { type DeliveryOutcome, WebhookWorker, type WebhookWorkerOptions } from '../../server/webhooks/worker.js';
import { employee } from '../fixtures/small.js';
import { captureLogs } from '../helpers/logCapture.js';
import type { WebhookReceiver } from '../helpers/webhookReceiver.js';

/** A clock the test moves. */
export class TestClock {
  constructor(public ms = Date.now()) {}
  readonly now = () => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
  to(at: Date): void {
    this.ms = Math.max(this.ms, at.getTime());
  }
}

export class CountingObserver {
  readonly attempts: DeliveryOutcome[] = [];
  retries = 0;
  disabled = 0;
  webhookAttempt(outcome: DeliveryOutcome) {
    this.attempts.push(outcome);
  }
  webhookRetryScheduled() {
    this.retries++;
  }
  webhookEndpointDisabled() {
    this.disabled++;
  }
}

export function testWorker(db: Queryable, clock: TestClock, options: Partial<WebhookWorkerOptions> = {}) {
  const logs = captureLogs('info');
  const observer = new CountingObserver();
  const worker = new WebhookWorker(db, logs.logger, {
    pollIntervalMs: 20,
    concurrency: 4,
    allowPrivateTargets: true,
    clock: clock.now,
    random: () => 0.5,
    timeoutMs: 500,
    observer,
    ...options,
  });
  return { worker, logs, observer };
}

/** Runs rounds until one makes no attempt; the attempts made. */
export async function drain(worker: WebhookWorker, rounds = 100): Promise<number> {
  let total = 0;
  for (let i = 0; i < rounds; i++) {
    const attempts = await worker.runOnce();
    if (!attempts) return total;
    total += attempts;
  }
  throw new Error(`still delivering after ${rounds} rounds`);
}

/** `count` new unlinked employments in `companyId`, imported in one file: that many employee.created changes. */
export async function addEmployments(db: Database, companyId: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await importRecords(
    db,
    ids.map((id) => employee({ id, companyId, personId: null })),
    'US',
  );
  return ids;
}

/** The feed's positions (as cursors) of `companies`' changes after `after`, in order. */
export async function feedPositions(db: Queryable, companies: string[], after: string): Promise<string[]> {
  const rows = await db.query<{ position: string }>(
    'SELECT c.position::text AS position FROM changes c WHERE c.company_id = ANY($1) AND c.position > $2 ORDER BY c.position',
    [companies, after],
  );
  return rows.map((r) => encodeChangeCursor(BigInt(r.position)));
}

/** An endpoint for `receiver`, added at the clock's now (due at once for a worker on that clock). */
export async function newEndpoint(db: Database, receiver: WebhookReceiver, companies: string[], clock: TestClock, events: string[] | null = null) {
  const added = await addEndpoint(db, { url: receiver.url, companies, events, allowPrivateTargets: true, now: clock.now() });
  receiver.secrets = [added.secret];
  const endpoint = (await findEndpoint(db, added.id)) as WebhookEndpoint;
  return { ...added, start: endpoint.deliveredPosition };
}

export const endpointNow = async (db: Queryable, id: string) => (await findEndpoint(db, id))!;
