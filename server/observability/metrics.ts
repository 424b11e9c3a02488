// Prometheus metrics (prom-client), one registry per server instance so tests and
// several instances in one process never share counters.
//
// The per-request counts (requests by route/method/status, latency by route, rate-limit
// rejections by route) are tallied in plain numbers and handed to prom-client only when
// /metrics is scraped: prom-client validates and hashes the labels of every observation,
// which cost more than the rest of hello's bookkeeping together. prom-client itself (and
// the OpenTelemetry API it loads) is loaded and set up on the first scrape, not at start:
// the process metrics are read at scrape time, and the event-loop and GC ones start then.
// The exposition is prom-client's own, unchanged.
import type { Metric, Registry } from 'prom-client';
import type { DatabaseStatus, PoolStats } from '../db/engines/database.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RequestTally {
  labels: { route: string; method: string; status: string };
  /** Requests since the last scrape. */
  pending: number;
}

interface LatencyTally {
  route: string;
  /** Cumulative counts per bucket (the last is +Inf), a sum and a count, since start. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

export class Metrics {
  private registry?: Promise<Registry>;
  /** By route, method and status: keys the request already holds, so no key is built per request. */
  private readonly requestTallies = new Map<string, Map<string, Map<number, RequestTally>>>();
  private readonly latencyTallies = new Map<string, LatencyTally>();
  /** Rate-limit rejections by route since the last scrape. */
  private readonly rateLimitedTallies = new Map<string, number>();

  /** Webhook attempts by outcome, retries scheduled and endpoints disabled, since the last scrape (the worker's WebhookObserver). */
  private readonly webhookTallies: WebhookTallies = { attempts: new Map(), retries: 0, disabled: 0 };

  constructor(
    private readonly poolStats?: () => PoolStats,
    /** Where reads go to replicas: each database's state (db/replicas/readRouting.ts). */
    private readonly databases?: () => DatabaseStatus[],
    /** Where webhooks are delivered: each endpoint's feed lag in seconds (0: none), as the worker last read it. */
    private readonly webhookLag?: () => { endpoint: string; seconds: number }[],
  ) {}

  webhookAttempt(outcome: string): void {
    this.webhookTallies.attempts.set(outcome, (this.webhookTallies.attempts.get(outcome) ?? 0) + 1);
  }

  webhookRetryScheduled(): void {
    this.webhookTallies.retries++;
  }

  webhookEndpointDisabled(): void {
    this.webhookTallies.disabled++;
  }

  /** The Prometheus exposition and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    this.registry ??= this.createRegistry().catch((error: unknown) => {
      this.registry = undefined; // tried again on the next scrape
      throw error;
    });
    const registry = await this.registry;
    return { contentType: registry.contentType, text: await registry.metrics() };
  }

  /** One request answered 429 rate_limited. */
  rateLimited(route: string): void {
    this.rateLimitedTallies.set(route, (this.rateLimitedTallies.get(route) ?? 0) + 1);
  }

  private async createRegistry(): Promise<Registry> {
    const { Counter, Gauge, Registry, collectDefaultMetrics } = await import('prom-client');
    const registry = new Registry();
    const requestTallies = this.requestTallies;
    new Counter({
      name: 'http_requests_total',
      help: 'Requests by route (operationId) and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
      collect() {
        for (const byMethod of requestTallies.values())
          for (const byStatus of byMethod.values())
            for (const tally of byStatus.values()) {
              if (tally.pending) this.inc(tally.labels, tally.pending);
              tally.pending = 0;
            }
      },
    });
    const rateLimitedTallies = this.rateLimitedTallies;
    new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests answered 429 rate_limited.',
      labelNames: ['route'],
      registers: [registry],
      collect() {
        for (const [route, pending] of rateLimitedTallies) if (pending) this.inc({ route }, pending);
        rateLimitedTallies.clear();
      },
    });
    registry.registerMetric(latencyHistogram(this.latencyTallies) as unknown as Metric);
    collectDefaultMetrics({ register: registry });
    const poolStats = this.poolStats;
    if (poolStats) {
      new Gauge({
        name: 'db_pool_connections',
        help: 'PostgreSQL pool connections by state.',
        labelNames: ['state'],
        registers: [registry],
        collect() {
          const s = poolStats();
          this.set({ state: 'total' }, s.total);
          this.set({ state: 'idle' }, s.idle);
          this.set({ state: 'waiting' }, s.waiting);
          this.set({ state: 'max' }, s.max);
        },
      });
    }
    const databases = this.databases;
    if (databases) databaseMetrics(registry, databases, Counter, Gauge);
    if (this.webhookLag) webhookMetrics(registry, this.webhookTallies, this.webhookLag, Counter, Gauge);
    return registry;
  }

  /** One answered request. Routes are the contract's operations and a fixed set of paths, so the tallies stay few. */
  observe(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.requestTallies.get(route);
    if (!byMethod) this.requestTallies.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let requests = byStatus.get(status);
    if (!requests) byStatus.set(status, (requests = { labels: { route, method, status: String(status) }, pending: 0 }));
    requests.pending++;
    let latency = this.latencyTallies.get(route);
    if (!latency) this.latencyTallies.set(route, (latency = { route, buckets: new Float64Array(LATENCY_BUCKETS.length + 1), sum: 0, count: 0 }));
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    latency.buckets[bucket]!++;
    latency.sum += seconds;
    latency.count++;
  }
}

/**
 * http_request_duration_seconds, as prom-client's Histogram would expose it (cumulative
 * `le` buckets, `_sum`, `_count`), from the tallies. A registry takes any metric that
 * answers get() with a name, help, type and values.
 */
function latencyHistogram(tallies: Map<string, LatencyTally>) {
  const name = 'http_request_duration_seconds';
  return {
    name,
    help: 'Request latency by route.',
    type: 'histogram',
    aggregator: 'sum',
    reset() {
      tallies.clear();
    },
    get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const { route, buckets, sum, count } of tallies.values()) {
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += buckets[i]!;
          values.push({ labels: { le, route }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels: { le: '+Inf', route }, value: count, metricName: `${name}_bucket` });
        values.push({ labels: { route }, value: sum, metricName: `${name}_sum` });
        values.push({ labels: { route }, value: count, metricName: `${name}_count` });
      }
      return { name, help: this.help, type: this.type, values, aggregator: this.aggregator };
    },
  };
}

interface WebhookTallies {
  attempts: Map<string, number>;
  retries: number;
  disabled: number;
}

/** The outcomes a delivery attempt has (server/webhooks/worker.ts DeliveryOutcome): each shown from the start, at 0. */
const WEBHOOK_OUTCOMES = ['delivered', 'failed', 'timeout', 'unreachable', 'refused'];

/** The webhook worker's counts, and each endpoint's feed lag (docs/operating/webhooks.md#metrics). */
function webhookMetrics(
  registry: Registry,
  tallies: WebhookTallies,
  lag: () => { endpoint: string; seconds: number }[],
  Counter: typeof import('prom-client').Counter,
  Gauge: typeof import('prom-client').Gauge,
): void {
  new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), failed (another status), timeout, unreachable, refused (address not allowed).',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      for (const outcome of WEBHOOK_OUTCOMES) this.inc({ outcome }, 0);
      for (const [outcome, pending] of tallies.attempts) this.inc({ outcome }, pending);
      tallies.attempts.clear();
    },
  });
  new Counter({
    name: 'webhook_retries_total',
    help: 'Failed webhook deliveries scheduled to be tried again (with backoff).',
    registers: [registry],
    collect() {
      this.inc(tallies.retries);
      tallies.retries = 0;
    },
  });
  new Counter({
    name: 'webhook_endpoints_disabled_total',
    help: 'Webhook endpoints this instance disabled after 24 hours of failed deliveries.',
    registers: [registry],
    collect() {
      this.inc(tallies.disabled);
      tallies.disabled = 0;
    },
  });
  new Gauge({
    name: 'webhook_feed_lag_seconds',
    help: "Age of each webhook endpoint's oldest change not delivered yet (0: it is up to date), as the worker last read it (every second or so).",
    labelNames: ['endpoint'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { endpoint, seconds } of lag()) this.set({ endpoint }, seconds);
    },
  });
}

/** Where reads go to replicas: whether each database answers, each replica's lag, and the reads each answered. */
function databaseMetrics(
  registry: Registry,
  databases: () => DatabaseStatus[],
  Counter: typeof import('prom-client').Counter,
  Gauge: typeof import('prom-client').Gauge,
): void {
  new Gauge({
    name: 'db_up',
    help: 'Whether each database answered its last heartbeat (primary) or check (replicas): 1 or 0.',
    labelNames: ['database', 'role'],
    registers: [registry],
    collect() {
      for (const d of databases()) this.set({ database: d.name, role: d.role }, d.up ? 1 : 0);
    },
  });
  new Gauge({
    name: 'db_replica_lag_seconds',
    help: "Age of the primary's heartbeat each replica has replayed, as last checked plus the time since.",
    labelNames: ['database'],
    registers: [registry],
    collect() {
      this.reset();
      for (const d of databases()) if (d.role === 'replica' && d.lagMs !== undefined) this.set({ database: d.name }, d.lagMs / 1000);
    },
  });
  const counted = new Map<string, number>();
  new Counter({
    name: 'db_reads_total',
    help: 'Reads (person queries, credential lookups) each database answered.',
    labelNames: ['database', 'role'],
    registers: [registry],
    collect() {
      for (const d of databases()) {
        this.inc({ database: d.name, role: d.role }, d.reads - (counted.get(d.name) ?? 0));
        counted.set(d.name, d.reads);
      }
    },
  });
}
