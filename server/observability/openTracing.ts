// The one place that loads the OpenTelemetry SDK (otel/), and only where the configuration
// asks for traces: with no OTLP endpoint set no OpenTelemetry module is loaded at all, so
// tracing off costs nothing (tests/operating/traces.slow.test.ts checks it).
import type { TracingSettings } from '../config.js';
import type { Tracing } from './tracing.js';

export async function openTracing(settings: TracingSettings): Promise<Tracing> {
  const { startTracing } = await import('./otel/sdk.js');
  return startTracing(settings);
}
