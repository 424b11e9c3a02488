// The least that traces on can add to a request, whatever the service around it does: the
// service's own server span (observability/otel/requestSpans.ts) started, ended and exported
// by the kept OpenTelemetry SDK, request after request, with nothing else in the loop. Run
// by run.ts as its own process on the target core, with OTEL_* pointing at the run's sink;
// prints the CPU time per request as one JSON line.
import type { IncomingMessage } from 'node:http';
import { loadConfig } from '../../server/config.js';
import { openTracing } from '../../server/observability/openTracing.js';

const WARMUP = 50_000;
const REQUESTS = 300_000;
/** Requests per turn of the event loop; between turns a timer lets the exports (one batch at a time, over HTTP) keep up, so no span is dropped. */
const PER_TURN = 100;
const HELLO = '/v1/companies/{companyId}/hello';

const settings = loadConfig(process.env).tracing;
if (!settings) throw new Error('spanFloor.ts needs OTEL_EXPORTER_OTLP_ENDPOINT');
const tracing = await openTracing(settings);
const req = { method: 'GET', headers: {} } as IncomingMessage;

async function requests(count: number): Promise<void> {
  for (let done = 0; done < count; done += PER_TURN) {
    for (let i = 0; i < PER_TURN; i++) tracing.request(req, (span) => span.end('GET', HELLO, 200));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

await requests(WARMUP);
const before = process.cpuUsage();
await requests(REQUESTS);
// The spans still queued are exported within the measurement: every span made is paid for whole.
await tracing.shutdown();
const cpu = process.cpuUsage(before);
console.log(JSON.stringify({ cpuUsPerRequest: (cpu.user + cpu.system) / REQUESTS }));
