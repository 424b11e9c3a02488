// The webhook worker: runs in every instance of the service (WEBHOOKS_ENABLED), and
// delivers each endpoint's changes in feed order, one batch in flight per endpoint
// (docs/decisions/0023-webhooks.md). Its state is the endpoint's row: a worker leases an
// endpoint (SKIP LOCKED, so N instances share the endpoints and each batch goes out from
// one of them), fixes the batch it sends under a webhook-id kept for every retry, posts
// it, and records the outcome with the lease's end. A stopped instance's lease runs out
// and another instance carries on: at least once, never out of order.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Queryable } from '../db/engines/database.js';
import {
  type ChangeRow,
  claimDueEndpoints,
  disableEndpoint,
  endpointChanges,
  fixBatch,
  oldestUndelivered,
  pruneDeliveries,
  prunedThrough,
  recordAttempt,
  releaseEndpoint,
  type WebhookEndpoint,
} from '../db/stores/webhooks.js';
import { signWebhook } from '../domain/webhookSigning.js';
import type { Logger } from '../observability/logger.js';
import { deliveryBody } from './changeObjects.js';
import { DELIVERY_TIMEOUT_MS, type PostOutcome, postDelivery } from './post.js';
import { RETRY_WINDOW_MS, retryDelayMs, retryWindowOver } from './retrySchedule.js';
import { resolveTarget, TargetRefused, targetUrl } from './targets.js';

/** Changes per delivery at most. */
export const BATCH_SIZE = 100;
/** An endpoint leased and not given back by then (its instance stopped) is due again. */
const LEASE_MS = DELIVERY_TIMEOUT_MS * 6;
/** Attempts are listed by `webhooks deliveries` for this long. */
const DELIVERIES_KEPT_MS = 7 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
const LAG_READ_EVERY_MS = 1_000;
/** The wait after a round that failed as a whole (the database down). */
const ROUND_RETRY_MS = 5_000;

export type DeliveryOutcome = Exclude<PostOutcome['outcome'], 'aborted'> | 'refused';

/** What the metrics count (observability/metrics.ts implements it). */
export interface WebhookObserver {
  webhookAttempt(outcome: DeliveryOutcome): void;
  webhookRetryScheduled(): void;
  webhookEndpointDisabled(): void;
}

/** Spans for the worker's work, where traces are on (observability/tracing.ts). */
export interface WebhookSpans {
  job<T>(
    name: string,
    attributes: Record<string, string | number>,
    work: (annotate: (attributes: Record<string, string | number>) => void) => Promise<T>,
  ): Promise<T>;
}

export interface WebhookWorkerOptions {
  pollIntervalMs: number;
  concurrency: number;
  allowPrivateTargets: boolean;
  /** The worker's clock: every instant it stores or compares (tests move it by a day). */
  clock?: () => Date;
  random?: () => number;
  timeoutMs?: number;
  batchSize?: number;
  observer?: WebhookObserver;
  spans?: WebhookSpans;
  /** True while a round should wait: the requests need every connection (app.ts). */
  busy?: () => boolean;
}

export class WebhookWorker {
  private readonly token = randomUUID();
  private readonly clock: () => Date;
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private readonly inFlight = new Set<Promise<boolean>>();
  private lastPrune = 0;
  /** Each endpoint's oldest undelivered change, as last read (feedLag()), and when. */
  private oldest: { id: string; oldest: Date | null }[] = [];
  private lastLagRead = 0;

  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
    private readonly options: WebhookWorkerOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * Polls every pollIntervalMs, and again at once after an attempt (a backlog drains
   * without waiting); after a round that failed (the database unreachable) it waits
   * ROUND_RETRY_MS, so an outage is not logged five times a second. A round leases only as many endpoints as there are free
   * slots and does not wait for their deliveries: a slow receiver holds its own slot only.
   */
  start(): void {
    void this.tick();
  }

  private async tick(): Promise<void> {
    if (this.stopping.signal.aborted || this.ticking) return;
    this.ticking = true;
    clearTimeout(this.timer);
    let wait = this.options.pollIntervalMs;
    try {
      for (const delivery of await this.launch()) void delivery.then((attempted) => attempted && this.wake());
    } catch (error) {
      wait = Math.max(wait, ROUND_RETRY_MS);
      this.logger.warn({ err: error, retryInMs: wait }, 'webhook worker round failed; trying again');
    } finally {
      this.ticking = false;
      if (!this.stopping.signal.aborted) this.timer = setTimeout(() => void this.tick(), wait);
    }
  }

  private wake(): void {
    if (this.stopping.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  /** One round, waited for to its end (the tests' step): the number of attempts made. */
  async runOnce(): Promise<number> {
    const attempted = await Promise.all(await this.launch());
    return attempted.filter(Boolean).length;
  }

  /** Leases the due endpoints, as many as there are free slots, and starts a delivery to each. */
  private async launch(): Promise<Promise<boolean>[]> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0 || this.options.busy?.()) return [];
    const now = this.clock();
    await this.pruneNow(now);
    await this.readLag(now);
    const leased = await claimDueEndpoints(this.db, this.token, now, new Date(now.getTime() + LEASE_MS), free);
    const pruned = leased.length ? BigInt(await prunedThrough(this.db)) : 0n;
    return leased.map((endpoint) => {
      const work = BigInt(endpoint.deliveredPosition) < pruned ? this.disablePruned(endpoint) : this.deliver(endpoint);
      const delivery = work.catch((error: unknown) => {
        // The lease runs out and the batch is tried again then.
        this.logger.warn({ err: error, endpointId: endpoint.id }, 'webhook delivery could not be recorded; its lease runs out and it is tried again');
        return false;
      });
      this.inFlight.add(delivery);
      void delivery.finally(() => this.inFlight.delete(delivery));
      return delivery;
    });
  }

  /** Stops polling, abandons deliveries in flight (given back to be sent again) and waits for them. */
  async close(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    while (this.ticking || this.inFlight.size) {
      await Promise.all([...this.inFlight]);
      if (this.ticking) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /**
   * The feed no longer holds every change after the endpoint's place (it was disabled, or
   * replayed from, longer ago than CHANGES_RETENTION): delivering what is left would skip
   * changes without a word. It is disabled instead; its consumer re-syncs.
   */
  private async disablePruned(endpoint: WebhookEndpoint): Promise<boolean> {
    const reason = 'the feed was pruned past its position (CHANGES_RETENTION): the consumer must re-sync, then replay from a current position';
    if (!(await disableEndpoint(this.db, endpoint.id, this.token, this.clock(), reason))) return false;
    this.options.observer?.webhookEndpointDisabled();
    this.logger.error({ endpointId: endpoint.id }, `webhook endpoint disabled: ${reason}`);
    return false;
  }

  /** Each endpoint's feed lag in seconds (0: up to date), as last read: for /metrics, which reads no database. */
  feedLag(): { endpoint: string; seconds: number }[] {
    const now = this.clock().getTime();
    return this.oldest.map(({ id, oldest }) => ({ endpoint: id, seconds: oldest ? Math.max(0, (now - oldest.getTime()) / 1000) : 0 }));
  }

  private async readLag(now: Date): Promise<void> {
    if (now.getTime() - this.lastLagRead < LAG_READ_EVERY_MS) return;
    this.lastLagRead = now.getTime();
    this.oldest = await oldestUndelivered(this.db);
  }

  private async pruneNow(now: Date): Promise<void> {
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    await pruneDeliveries(this.db, new Date(now.getTime() - DELIVERIES_KEPT_MS));
  }

  /** One attempt at the endpoint's batch; false when there was nothing to send or the attempt was abandoned. */
  private deliver(endpoint: WebhookEndpoint): Promise<boolean> {
    const spans = this.options.spans;
    const attributes = { 'webhook.endpoint.id': endpoint.id, 'webhook.attempt': endpoint.attempts + 1 };
    return spans ? spans.job('webhook delivery', attributes, (annotate) => this.deliverBatch(endpoint, annotate)) : this.deliverBatch(endpoint, () => {});
  }

  /** Reads the endpoint's batch (fixing a new one under a new id), then makes the attempt. */
  private async deliverBatch(endpoint: WebhookEndpoint, annotate: (attributes: Record<string, string | number>) => void): Promise<boolean> {
    const changes = await endpointChanges(this.db, endpoint, this.options.batchSize ?? BATCH_SIZE);
    if (!endpoint.pendingId) {
      if (!changes.length) {
        await releaseEndpoint(this.db, endpoint.id, this.token, this.clock());
        return false;
      }
      endpoint.pendingId = `msg_${randomUUID().replaceAll('-', '')}`;
      endpoint.pendingThrough = changes.at(-1)!.position;
      if (!(await fixBatch(this.db, endpoint.id, this.token, endpoint.pendingId, endpoint.pendingThrough))) return false;
    }
    annotate({ 'webhook.delivery.id': endpoint.pendingId, 'webhook.changes': changes.length });
    return this.attempt(endpoint, changes, annotate);
  }

  private async attempt(endpoint: WebhookEndpoint, changes: ChangeRow[], annotate: (attributes: Record<string, string | number>) => void): Promise<boolean> {
    const started = performance.now();
    const at = this.clock();
    const result = await this.post(endpoint, changes, at);
    if (result.outcome === 'aborted') {
      await releaseEndpoint(this.db, endpoint.id, this.token, this.clock());
      return false;
    }
    const outcome: DeliveryOutcome = result.outcome;
    const status = 'status' in result ? result.status : null;
    annotate({ 'webhook.outcome': outcome, ...(status === null ? {} : { 'http.response.status_code': status }) });
    const delivered = outcome === 'delivered';
    const firstFailedAt = endpoint.firstFailedAt ?? at;
    const over = !delivered && retryWindowOver(firstFailedAt, at);
    const recorded = await recordAttempt(this.db, {
      endpointId: endpoint.id,
      token: this.token,
      deliveryId: endpoint.pendingId!,
      attempt: endpoint.attempts + 1,
      afterPosition: endpoint.deliveredPosition,
      throughPosition: endpoint.pendingThrough!,
      changes: changes.length,
      outcome,
      status,
      durationMs: Math.round(performance.now() - started),
      at,
      next: delivered
        ? { delivered: true }
        : {
            delivered: false,
            firstFailedAt,
            nextAttemptAt: new Date(at.getTime() + retryDelayMs(endpoint.attempts + 1, (this.options.random ?? Math.random)())),
            disabledReason: over ? `every attempt failed for ${RETRY_WINDOW_MS / 3_600_000} hours (last: ${describe(result)})` : null,
          },
    });
    if (!recorded) return false;
    this.observe(endpoint, outcome, over, describe(result));
    return true;
  }

  /** Checks the target (again: what it resolves to may have changed since `add`), signs, and posts. */
  private async post(endpoint: WebhookEndpoint, changes: ChangeRow[], at: Date): Promise<PostOutcome | { outcome: 'refused'; reason: string }> {
    const allowPrivate = this.options.allowPrivateTargets;
    let target: Awaited<ReturnType<typeof resolveTarget>>;
    try {
      target = await resolveTarget(targetUrl(endpoint.url, allowPrivate), allowPrivate);
    } catch (error) {
      if (error instanceof TargetRefused) return { outcome: 'refused', reason: error.message };
      throw error;
    }
    const body = deliveryBody(changes);
    const timestamp = Math.floor(at.getTime() / 1000);
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret && endpoint.previousSecretValidUntil && endpoint.previousSecretValidUntil > at) secrets.push(endpoint.previousSecret);
    const headers = {
      'webhook-id': endpoint.pendingId!,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secrets, endpoint.pendingId!, timestamp, body),
    };
    return postDelivery(target, headers, body, { timeoutMs: this.options.timeoutMs, signal: this.stopping.signal });
  }

  private observe(endpoint: WebhookEndpoint, outcome: DeliveryOutcome, disabled: boolean, detail: string): void {
    const observer = this.options.observer;
    observer?.webhookAttempt(outcome);
    if (outcome === 'delivered') return;
    if (disabled) {
      observer?.webhookEndpointDisabled();
      this.logger.error(
        { endpointId: endpoint.id, deliveryId: endpoint.pendingId, attempts: endpoint.attempts + 1, outcome: detail },
        'webhook endpoint disabled: its deliveries failed for 24 hours (npm run webhooks -- enable, or replay, once the receiver works)',
      );
      return;
    }
    observer?.webhookRetryScheduled();
    this.logger.warn(
      { endpointId: endpoint.id, deliveryId: endpoint.pendingId, attempt: endpoint.attempts + 1, outcome: detail },
      'webhook delivery failed; retrying',
    );
  }
}

function describe(result: PostOutcome | { outcome: 'refused'; reason: string }): string {
  switch (result.outcome) {
    case 'failed':
    case 'delivered':
      return `HTTP ${result.status}`;
    case 'unreachable':
      return `unreachable (${result.code})`;
    case 'refused':
      return `refused: ${result.reason}`;
    default:
      return result.outcome;
  }
}
