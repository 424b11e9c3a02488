// OpenTelemetry traces, as the rest of the server sees them: an interface, implemented by
// otel/ and loaded by openTracing.ts only where the configuration asks for traces.
import type { IncomingMessage } from 'node:http';
import type { Redis } from 'ioredis';
import type { Queryable } from '../db/engines/database.js';

export interface Tracing {
  /**
   * Runs `handle` inside the request's server span (continuing the caller's W3C
   * traceparent), so the spans and log lines made on its behalf belong to it.
   */
  request<T>(req: IncomingMessage, handle: (span: RequestSpan) => T): T;
  /** `target`, with a child span of the current request for each statement (its text, never its values). */
  queryable(target: Queryable): Queryable;
  /** Makes `client` add a child span of the current request for each command it sends (its name, never its keys). */
  redis(client: Redis): void;
  /**
   * Runs `work` in a root span of its own named `name` (a job outside any request: the
   * webhook worker's deliveries), its statements child spans of it; `annotate` adds
   * attributes once they are known. A rejection marks the span failed.
   */
  job<T>(
    name: string,
    attributes: Record<string, string | number>,
    work: (annotate: (attributes: Record<string, string | number>) => void) => Promise<T>,
  ): Promise<T>;
  /** The current span's ids for a log line (pino's mixin): `trace_id`, `span_id`, `trace_flags`. */
  logFields(): Record<string, string>;
  /** Exports the spans still waiting, then stops. */
  shutdown(): Promise<void>;
}

export interface RequestSpan {
  /**
   * Names the span by the route template (`GET /v1/persons/{personId}`; the method alone
   * where no route matched), records the status and ends it.
   */
  end(method: string | undefined, template: string | undefined, status: number): void;
}
