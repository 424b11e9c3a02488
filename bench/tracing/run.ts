// `npm run bench -- --tracing`: what OpenTelemetry traces cost. The service (built, as in
// production, on the PostgreSQL bench dataset) with traces off beside the same service with
// them on at the default sampler (parentbased_always_on: every request sampled) and with one
// request in ten sampled (what docs/operating/observability.md suggests at high rates),
// exporting OTLP/HTTP protobuf to a local sink that accepts each batch and discards it; hello
// and Get person, in the same alternating rounds of one run.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { ensureDataset } from '../dataset/build.js';
import { scaleFor } from '../dataset/generate.js';
import { drawSamples } from '../dataset/samples.js';
import { describeMachine, gitCommit, type Machine, onCpu, pinSelf } from '../machine.js';
import type { BenchOptions } from '../options.js';
import { prewarm } from '../prewarm.js';
import { childEnv, type Running } from '../processes.js';
import { type ComparedWith, type Comparison, comparedWith, compareSideBySide, sideBySideScenarios, startServices } from '../sideBySide.js';
import { round } from '../stats.js';
import { serviceTarget } from '../targets.js';

export const TRACES_OFF = 'service, traces off';
export const TRACES_ON = 'service, traces on';
export const TRACES_SAMPLED = 'service, traces on, 1 in 10 sampled';
/** The share of requests the third service samples (parentbased_traceidratio). */
export const SAMPLED_RATIO = 0.1;

export interface TracingRunResult {
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  revision: string;
  options: ComparedWith & { people: number };
  loadAverage: { start: number; end: number };
  /** Span batches the sink received, and their bytes: the spans did go out. */
  sink: { batches: number; bytes: number };
  comparison: Comparison[];
  /** CPU µs per request of one server span alone, made and exported by the SDK (spanFloor.ts); absent from earlier runs. */
  spanFloorUs?: number;
}

export async function runTracingBench(options: BenchOptions, log: (line: string) => void): Promise<TracingRunResult> {
  if (!options.postgres) throw new Error('--tracing measures the service on PostgreSQL: it cannot run with --no-postgres');
  const startedAt = new Date().toISOString();
  const machine = describeMachine();
  if (machine.pinning) pinSelf(machine.pinning.loadCpu);
  const cpu = machine.pinning?.targetCpu;
  const { databaseUrl, people, companies, seed } = options.postgres;
  const info = await ensureDataset({ engine: 'postgres', databaseUrl }, { scale: scaleFor(people, { companies, seed }), rebuild: options.rebuild, log });
  const sink = await startSpanSink();
  const running: Running[] = [];
  const db = await openDatabase({ databaseUrl, poolMax: 2 });
  try {
    await prewarm(db);
    const oneLarge = info.credentials.find((c) => c.key === 'oneLarge')!;
    const held = (await findActiveCredential(db, hashToken(oneLarge.token)))!;
    const samples = await drawSamples(db, oneLarge.companies, { count: options.samples, seed: info.scale.seed });
    const ready = { companyId: oneLarge.companies[0]!, token: oneLarge.token };
    const off = serviceTarget(TRACES_OFF, { databaseUrl }, ready);
    const on = serviceTarget(TRACES_ON, { databaseUrl }, ready, { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url });
    const sampled = serviceTarget(TRACES_SAMPLED, { databaseUrl }, ready, {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: String(SAMPLED_RATIO),
    });
    const config = loadConfig(childEnv(off.env));
    const scenarios = sideBySideScenarios([TRACES_ON, TRACES_SAMPLED, TRACES_OFF], { ...ready, kinds: ['getPerson'], samples, held, config });
    const services = await startServices([off, on, sampled], cpu, running, log);
    const loadAtStart = os.loadavg()[0]!;
    const comparison = await compareSideBySide(services, scenarios, options, log);
    await Promise.all(running.splice(0).map((r) => r.stop()));
    const spanFloorUs = await measureSpanFloor(cpu, sink.url);
    log(`one span alone, made and exported: ${round(spanFloorUs, 2)} µs of CPU per request`);
    return {
      startedAt,
      finishedAt: new Date().toISOString(),
      machine,
      revision: gitCommit(),
      options: { ...comparedWith(options), people },
      loadAverage: { start: round(loadAtStart, 2), end: round(os.loadavg()[0]!, 2) },
      sink: sink.received,
      comparison,
      spanFloorUs,
    };
  } finally {
    await Promise.all(running.map((r) => r.stop()));
    await db.close();
    await sink.close();
  }
}

/** spanFloor.ts's CPU per request, as its own process on the target core, exporting to the run's sink. */
async function measureSpanFloor(cpu: number | undefined, sinkUrl: string): Promise<number> {
  const [command, ...args] = onCpu([process.execPath, '--import', 'tsx', fileURLToPath(new URL('./spanFloor.ts', import.meta.url))], cpu);
  const { stdout } = await promisify(execFile)(command!, args, { env: childEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl }) });
  return (JSON.parse(stdout) as { cpuUsPerRequest: number }).cpuUsPerRequest;
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
