// An OTLP/HTTP trace receiver for the tests: a node:http server on 127.0.0.1 that takes
// ExportTraceServiceRequest bodies as the service's exporter sends them, in JSON or
// protobuf (gzip or not), and keeps every span, flattened. The protobuf is decoded here
// by its wire format (only the fields the tests read), so the receiver shares no code
// with the exporter it checks.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The resource's attributes (service.name…). */
  resource: Record<string, string | number | boolean>;
  /** How it came: `application/json` or `application/x-protobuf`. */
  contentType: string;
}

export interface OtlpReceiver {
  /** The endpoint base to give OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** Paths other than /v1/traces that were posted to. */
  strayPaths: string[];
  /** Resolves once `predicate` holds for the spans received so far. */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const strayPaths: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || req.method !== 'POST') {
        strayPaths.push(`${req.method} ${req.url}`);
        res.writeHead(404).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const contentType = String(req.headers['content-type']).split(';')[0]!;
      const received = contentType === 'application/json' ? fromJson(JSON.parse(body.toString('utf8'))) : fromProtobuf(body);
      for (const span of received) spans.push({ ...span, contentType });
      res.writeHead(200, { 'content-type': contentType }).end(contentType === 'application/json' ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    strayPaths,
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(spans)) {
        if (Date.now() > deadline) throw new Error(`spans not received in ${timeoutMs} ms; got: ${spans.map((s) => s.name).join(', ') || 'none'}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return spans;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Flat = Omit<ReceivedSpan, 'contentType'>;

/** OTLP/JSON: ids are hex strings, integers may come as strings. */
function fromJson(request: any): Flat[] {
  const out: Flat[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? [])
      for (const span of scopeSpans.spans ?? [])
        out.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          attributes: jsonAttributes(span.attributes),
          statusCode: span.status?.code ?? 0,
          resource,
        });
  }
  return out;
}

function jsonAttributes(list: any[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if ('stringValue' in value) out[key] = value.stringValue;
    else if ('intValue' in value) out[key] = Number(value.intValue);
    else if ('boolValue' in value) out[key] = value.boolValue;
    else if ('doubleValue' in value) out[key] = value.doubleValue;
  }
  return out;
}

/** A protobuf message's fields: number → the values (varints as bigint, the rest as bytes). */
function fields(buffer: Buffer): Map<number, (bigint | Buffer)[]> {
  const out = new Map<number, (bigint | Buffer)[]>();
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const [field, wire] = [key >> 3, key & 7];
    let value: bigint | Buffer;
    if (wire === 0) value = varint();
    else if (wire === 1) value = buffer.subarray(at, (at += 8));
    else if (wire === 2) {
      const length = Number(varint());
      value = buffer.subarray(at, (at += length));
    } else if (wire === 5) value = buffer.subarray(at, (at += 4));
    else throw new Error(`unexpected protobuf wire type ${wire}`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

const bytes = (message: Map<number, (bigint | Buffer)[]>, field: number) => (message.get(field)?.[0] as Buffer | undefined) ?? Buffer.alloc(0);
const all = (message: Map<number, (bigint | Buffer)[]>, field: number) => (message.get(field) ?? []) as Buffer[];

/** ExportTraceServiceRequest → ResourceSpans(1) → Resource(1), ScopeSpans(2) → Span(2). */
function fromProtobuf(body: Buffer): Flat[] {
  const out: Flat[] = [];
  for (const resourceSpans of all(fields(body), 1).map(fields)) {
    const resource = protobufAttributes(all(fields(bytes(resourceSpans, 1)), 1));
    for (const scopeSpans of all(resourceSpans, 2).map(fields))
      for (const span of all(scopeSpans, 2).map(fields))
        out.push({
          traceId: bytes(span, 1).toString('hex'),
          spanId: bytes(span, 2).toString('hex'),
          parentSpanId: bytes(span, 4).toString('hex'),
          name: bytes(span, 5).toString('utf8'),
          kind: Number(span.get(6)?.[0] ?? 0n),
          attributes: protobufAttributes(all(span, 9)),
          statusCode: Number(fields(bytes(span, 15)).get(3)?.[0] ?? 0n),
          resource,
        });
  }
  return out;
}

/** KeyValue(1 key, 2 AnyValue(1 string, 2 bool, 3 int, 4 double)). */
function protobufAttributes(list: Buffer[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const keyValue of list.map(fields)) {
    const key = bytes(keyValue, 1).toString('utf8');
    const value = fields(bytes(keyValue, 2));
    if (value.has(1)) out[key] = bytes(value, 1).toString('utf8');
    else if (value.has(2)) out[key] = value.get(2)![0] === 1n;
    else if (value.has(3)) out[key] = Number(BigInt.asIntN(64, value.get(3)![0] as bigint));
    else if (value.has(4)) out[key] = (value.get(4)![0] as Buffer).readDoubleLE(0);
  }
  return out;
}
