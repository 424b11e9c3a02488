// The OpenTelemetry SDK set up from the service's TracingSettings (config.ts reads the
// standard OTEL_* variables): one tracer provider, a batch processor exporting OTLP over
// HTTP (protobuf or JSON), the sampler named, and W3C trace context. Spans are made by
// hand where the service does its work (requestSpans.ts, clientSpans.ts) rather than by
// patching modules as they load: the server is ESM, pg and ioredis are loaded before any
// hook could be, and PGlite has no instrumentation at all.
import { context, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import type { SamplerName, TracingSettings } from '../../config.js';
import type { Tracing } from '../tracing.js';
import { jobSpans, queryableSpans, redisSpans } from './clientSpans.js';
import { requestSpans } from './requestSpans.js';

/** Longest a shutdown waits for the last spans to go out. */
const SHUTDOWN_WAIT_MS = 5_000;
const NO_FIELDS: Record<string, string> = {};

export function startTracing(settings: TracingSettings): Tracing {
  const exporterOptions = {
    url: settings.url,
    headers: settings.headers,
    timeoutMillis: settings.timeoutMs,
    compression: settings.compression as never,
  };
  const exporter = settings.protocol === 'http/json' ? new JsonExporter(exporterOptions) : new ProtobufExporter(exporterOptions);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ ...settings.resourceAttributes, 'service.name': settings.serviceName }),
    sampler: sampler(settings.sampler, settings.samplerRatio),
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        scheduledDelayMillis: settings.batch.scheduleDelayMs,
        maxQueueSize: settings.batch.maxQueueSize,
        maxExportBatchSize: settings.batch.maxExportBatchSize,
        exportTimeoutMillis: settings.batch.exportTimeoutMs,
      }),
    ],
  });
  // Registers the AsyncLocalStorage context manager: a request's span is current in every
  // callback and promise made on its behalf, which is how its queries and log lines find it.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  const tracer = provider.getTracer('person-lookup');
  const propagator = settings.continueTraces ? new W3CTraceContextPropagator() : undefined;

  return {
    request: requestSpans(tracer, propagator),
    queryable: (target) => queryableSpans(tracer, target),
    redis: (client) => redisSpans(tracer, client),
    job: jobSpans(tracer),
    logFields() {
      const span = trace.getSpan(context.active());
      if (!span) return NO_FIELDS;
      const { traceId, spanId, traceFlags } = span.spanContext();
      return { trace_id: traceId, span_id: spanId, trace_flags: traceFlags.toString(16).padStart(2, '0') };
    },
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([provider.shutdown(), new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)))]);
      clearTimeout(timer);
      context.disable();
      trace.disable();
    },
  };
}

/** The specification's built-in samplers by their OTEL_TRACES_SAMPLER names. */
function sampler(name: SamplerName, ratio: number): Sampler {
  const root: Record<string, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: () => new TraceIdRatioBasedSampler(ratio),
  };
  if (!name.startsWith('parentbased_')) return root[name]!();
  return new ParentBasedSampler({ root: root[name.slice('parentbased_'.length)]!() });
}
