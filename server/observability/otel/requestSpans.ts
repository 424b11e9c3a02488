// The server span of each request: continued from the caller's W3C traceparent, named
// by the route template once routing knows it (`GET /v1/persons/{personId}`), never by
// the requested path, which holds ids and search terms. For the same reason no url.path,
// query or client address is recorded (see the logs' rules in docs/operating/observability.md).
import type { IncomingMessage } from 'node:http';
import { type Context, context, defaultTextMapGetter, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { RequestSpan, Tracing } from '../tracing.js';

/** Methods named as they are; any other is `_OTHER` and the span is named `HTTP` (OpenTelemetry's HTTP conventions). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);

class ServerSpan implements RequestSpan {
  constructor(private readonly span: Span) {}

  end(method: string | undefined, template: string | undefined, status: number): void {
    const known = method !== undefined && KNOWN_METHODS.has(method);
    const name = known ? method : 'HTTP';
    this.span.updateName(template ? `${name} ${template}` : name);
    if (template) this.span.setAttribute('http.route', template);
    this.span.setAttribute('http.response.status_code', status);
    // A server's 4xx is the caller's mistake, not the service's (OpenTelemetry's HTTP conventions).
    if (status >= 500) {
      this.span.setAttribute('error.type', String(status));
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
}

export function requestSpans(tracer: Tracer, propagator: W3CTraceContextPropagator | undefined): Tracing['request'] {
  return (req, handle) => {
    const parent = callerContext(req, propagator);
    const method = req.method ?? '';
    const known = KNOWN_METHODS.has(method);
    const span = tracer.startSpan(
      known ? method : 'HTTP',
      {
        kind: SpanKind.SERVER,
        // The required attributes only: each one is paid for on every request, in the span and in its export.
        attributes: { 'http.request.method': known ? method : '_OTHER', 'url.scheme': 'http' },
      },
      parent,
    );
    return context.with(trace.setSpan(parent, span), handle, undefined, new ServerSpan(span));
  };
}

/** The caller's trace, where it sent a traceparent (and continuing traces is on). */
function callerContext(req: IncomingMessage, propagator: W3CTraceContextPropagator | undefined): Context {
  if (!propagator || req.headers.traceparent === undefined) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
}
