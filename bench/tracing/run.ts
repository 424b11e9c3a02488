// `npm run bench -- --tracing`: what OpenTelemetry traces cost. The built service on the
// PostgreSQL bench dataset with traces off, on at the default sampler (every request), and on
// with one request in ten (what docs/operating/observability.md suggests at high rates),
// exporting to a local sink that discards each batch; hello and Get person, side by side.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { ensureDataset } from '../dataset/build.js';
import { beginRun, type RunStamp } from '../machine.js';
import type { BenchOptions } from '../options.js';
import { prewarm } from '../prewarm.js';
import type { Running } from '../processes.js';
import { askAs, helloAs } from '../scenarios.js';
import { type ComparedWith, type Comparison, comparedWith, compareSideBySide } from '../sideBySide.js';
import { serviceTarget } from '../targets.js';

export const TRACES_OFF = 'service, traces off';
export const TRACES_ON = 'service, traces on';
export const TRACES_SAMPLED = 'service, traces on, 1 in 10 sampled';
/** The share of requests the third service samples (parentbased_traceidratio). */
export const SAMPLED_RATIO = 0.1;

export interface TracingRunResult extends RunStamp {
  options: ComparedWith & { people: number };
  /** Span batches the sink received, and their bytes: the spans did go out. */
  sink: { batches: number; bytes: number };
  comparison: Comparison[];
}

export async function runTracingBench(options: BenchOptions, log: (line: string) => void): Promise<TracingRunResult> {
  const run = beginRun();
  const { databaseUrl, people } = options.postgres!;
  const info = await ensureDataset(options.postgres!, { rebuild: options.rebuild, log });
  const sink = await startSpanSink();
  const running: Running[] = [];
  const db = await openDatabase({ databaseUrl, poolMax: 2 });
  try {
    await prewarm(db);
    const asked = await askAs(db, info, 'oneLarge', options.samples);
    const ready = helloAs(asked.credential);
    const exporting = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url };
    const sampler = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(SAMPLED_RATIO) };
    const specs = [
      serviceTarget(TRACES_ON, { databaseUrl }, ready, exporting),
      serviceTarget(TRACES_SAMPLED, { databaseUrl }, ready, { ...exporting, ...sampler }),
      serviceTarget(TRACES_OFF, { databaseUrl }, ready),
    ];
    run.measuring();
    const { comparison } = await compareSideBySide(specs, ['getPerson'], asked, { options, cpu: run.cpu, running, log });
    return { ...run.stamp(), options: { ...comparedWith(options), people }, sink: sink.received, comparison };
  } finally {
    await Promise.all(running.map((r) => r.stop()));
    await db.close();
    await sink.close();
  }
}

/** An OTLP/HTTP endpoint on loopback that answers every export 200 and keeps nothing but a count. */
async function startSpanSink(): Promise<{ url: string; received: { batches: number; bytes: number }; close(): Promise<void> }> {
  const received = { batches: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
    req.on('end', () => {
      received.batches++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
