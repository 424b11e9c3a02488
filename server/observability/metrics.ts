// Prometheus metrics (prom-client), one registry per server instance so tests and
// several instances in one process never share counters.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolStats } from '../db/database.js';

export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'http_requests_total', help: 'Requests by route (operationId) and status.', labelNames: ['route', 'method', 'status'], registers: [this.registry] });
  readonly latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Request latency by route.',
    labelNames: ['route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({ name: 'rate_limit_rejections_total', help: 'Requests answered 429 rate_limited.', labelNames: ['route'], registers: [this.registry] });

  constructor(poolStats?: () => PoolStats) {
    collectDefaultMetrics({ register: this.registry });
    if (poolStats) {
      new Gauge({
        name: 'db_pool_connections',
        help: 'PostgreSQL pool connections by state.',
        labelNames: ['state'],
        registers: [this.registry],
        collect() {
          const s = poolStats();
          this.set({ state: 'total' }, s.total);
          this.set({ state: 'idle' }, s.idle);
          this.set({ state: 'waiting' }, s.waiting);
          this.set({ state: 'max' }, s.max);
        },
      });
    }
  }

  // Label children are looked up once per label combination: prom-client otherwise hashes
  // the label object on every observation. Routes are the contract's operations and a
  // fixed set of paths, so these maps stay small.
  private readonly requestChildren = new Map<string, ReturnType<Counter['labels']>>();
  private readonly latencyChildren = new Map<string, ReturnType<Histogram['labels']>>();

  observe(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let requests = this.requestChildren.get(key);
    if (!requests) this.requestChildren.set(key, (requests = this.requests.labels({ route, method, status })));
    requests.inc();
    let latency = this.latencyChildren.get(route);
    if (!latency) this.latencyChildren.set(route, (latency = this.latency.labels({ route })));
    latency.observe(seconds);
  }
}
