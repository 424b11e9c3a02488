// OpenTelemetry traces as an operator turns them on: the service started as a process with
// OTEL_EXPORTER_OTLP_ENDPOINT pointing at a receiver this test runs, a caller's
// traceparent continued, spans named by route templates, statements without their values,
// and the ids in the request's log lines. Off, the process loads no OpenTelemetry module.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecords } from '../../server/importing/index.js';
import { smallDataset, tokens } from '../fixtures/small.js';
import { type Call, contractCall } from '../helpers/call.js';
import { type ChildServer, startChildServer } from '../helpers/childServer.js';
import { type Engine, engines, openMigratedDataDir, throwawayDatabase } from '../helpers/databases.js';
import { dropRedisKeys, redisUrl, uniqueKeyPrefix } from '../helpers/environment.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../helpers/otlpReceiver.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const traceparent = `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`;
const TOKEN = tokens.both;
const SERVER = 2;
const CLIENT = 3;

/** The service from source, with moduleWatch.mjs recording every OpenTelemetry module it loads. */
const WATCHED = ['--import', 'tsx', '--import', './tests/fixtures/moduleWatch.mjs', 'server/main.ts'];
const watchFile = (name: string) => join(tmpdir(), `module-watch-${name}-${process.pid}-${Date.now()}`);

/** Stops the service as an orchestrator does (SIGTERM, so it flushes and the exit hook runs), then reads what it loaded. */
async function stopAndReadLoaded(server: ChildServer, file: string): Promise<string[]> {
  server.process.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
  const loaded = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  rmSync(file, { force: true });
  return loaded;
}

/** The small dataset in a database of the engine's, and the service's variables to open it (PGlite: a data directory, opened by one process at a time). */
async function storedDataset(engine: Engine): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (engine === 'postgres') {
    const database = await throwawayDatabase('postgres');
    await importRecords(database.db, smallDataset(), 'US');
    return { env: { DATABASE_URL: database.url!, DEMO_DATA: 'false' }, drop: () => database.drop() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'traces-pglite-'));
  const db = await openMigratedDataDir(join(dir, 'db'));
  await importRecords(db, smallDataset(), 'US');
  await db.close();
  return { env: { PGLITE_DATA_DIR: join(dir, 'db'), DEMO_DATA: 'false' }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a caller does: hello, a search, then the person found, all in its own trace; then an unknown path. */
async function callerFlow(call: Call) {
  const headers = { traceparent };
  expect((await call('GET', '/v1/companies/acme-corp/hello', { token: TOKEN, headers })).status).toBe(200);
  const found = await call('POST', '/v1/persons/search', { token: TOKEN, headers, body: { lastName: 'dur' } });
  expect(found.status).toBe(200);
  const person = found.body.persons[0];
  expect(person).toBeDefined();
  expect((await call('GET', `/v1/persons/${person.id}`, { token: TOKEN, headers })).status).toBe(200);
  expect((await call('GET', `/v1/unknown/${person.id}`, { token: TOKEN, headers })).status).toBe(404);
  return { personId: person.id as string, lastName: person.lastName as string };
}

describe.each(engines)('traces exported over OTLP, on %s', (engine) => {
  let receiver: OtlpReceiver;
  let database: Awaited<ReturnType<typeof storedDataset>>;
  let server: ChildServer;
  let flow: { personId: string; lastName: string };
  let spans: ReceivedSpan[];
  let loaded: string[];
  const file = watchFile(engine);
  const prefix = uniqueKeyPrefix(`traces-${engine}`);
  const withRedis = engine === 'postgres' && redisUrl !== undefined;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    database = await storedDataset(engine);
    server = await startChildServer(
      {
        // On PGlite the base endpoint and the default protocol (protobuf); on PostgreSQL the
        // traces endpoint itself and JSON.
        ...(engine === 'pglite'
          ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }
          : { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
        ...database.env,
        ...(withRedis && { REDIS_URL: redisUrl!, RATE_LIMIT_KEY_PREFIX: prefix }),
        OTEL_SERVICE_NAME: 'lookup-under-test',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        MODULE_WATCH_FILE: file,
      },
      90_000,
      WATCHED,
    );
    flow = await callerFlow(contractCall(server.url));
    spans = await receiver.waitFor((received) => received.filter((s) => s.kind === SERVER && s.traceId === TRACE_ID).length >= 4);
    loaded = await stopAndReadLoaded(server, file);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await database?.drop();
    await dropRedisKeys(prefix);
  });

  const serverSpan = (name: string) => {
    const found = spans.filter((s) => s.kind === SERVER && s.traceId === TRACE_ID && s.name === name);
    expect(found, `one server span named "${name}"; got ${spans.map((s) => s.name).join(', ')}`).toHaveLength(1);
    return found[0]!;
  };
  const childrenOf = (parent: ReceivedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId);

  it('names each request span by its route template and continues the caller trace', () => {
    const names = ['GET /v1/companies/{companyId}/hello', 'POST /v1/persons/search', 'GET /v1/persons/{personId}'];
    for (const name of names) {
      const span = serverSpan(name);
      expect(span.parentSpanId).toBe(CALLER_SPAN_ID);
      expect(span.attributes).toMatchObject({ 'http.route': name.split(' ')[1], 'http.request.method': name.split(' ')[0], 'http.response.status_code': 200 });
      expect(span.resource['service.name']).toBe('lookup-under-test');
      expect(span.contentType).toBe(engine === 'pglite' ? 'application/x-protobuf' : 'application/json');
    }
    // An unknown route gets the method alone: never the path with its ids.
    expect(serverSpan('GET').attributes).toMatchObject({ 'http.response.status_code': 404 });
    expect(serverSpan('GET').attributes['http.route']).toBeUndefined();
    expect(receiver.strayPaths).toEqual([]);
  });

  it('adds a child span for each PostgreSQL statement, with its text and never its values', () => {
    for (const name of ['POST /v1/persons/search', 'GET /v1/persons/{personId}']) {
      const statements = childrenOf(serverSpan(name)).filter((s) => s.attributes['db.system.name'] === 'postgresql');
      expect(statements.length, `statements under ${name}`).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(statement.kind).toBe(CLIENT);
        expect(statement.traceId).toBe(TRACE_ID);
        expect(String(statement.attributes['db.query.text'])).toMatch(/\$1/);
        expect(statement.name).toBe(statement.attributes['db.operation.name']);
      }
    }
    // No span anywhere carries what the caller sent or got: the token, the person's id or name, the search term.
    const everything = JSON.stringify(spans);
    for (const value of [TOKEN, flow.personId, flow.lastName, "'dur"]) expect(everything).not.toContain(value);
  });

  it.runIf(withRedis)('adds a child span for each Redis command of the rate limit, by its name only', () => {
    const commands = childrenOf(serverSpan('GET /v1/companies/{companyId}/hello')).filter((s) => s.attributes['db.system.name'] === 'redis');
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      expect(command.kind).toBe(CLIENT);
      expect(command.name).toMatch(/^[A-Z]+$/);
      expect(JSON.stringify(command.attributes)).not.toContain(prefix);
    }
  });

  it("writes the request's trace and span ids in its log lines", () => {
    for (const [route, name] of [
      ['hello', 'GET /v1/companies/{companyId}/hello'],
      ['searchPersons', 'POST /v1/persons/search'],
      ['getPerson', 'GET /v1/persons/{personId}'],
    ] as const) {
      const lines = server.logs.filter((line) => line.msg === 'request' && line.route === route);
      expect(lines, route).toHaveLength(1);
      expect(lines[0]).toMatchObject({ trace_id: TRACE_ID, span_id: serverSpan(name).spanId, trace_flags: '01' });
    }
    // Lines outside a request have no ids.
    expect(server.logs.find((line) => line.msg === 'listening')).not.toHaveProperty('trace_id');
  });

  it('loads OpenTelemetry (the control of the check that off loads none)', () => {
    expect(loaded.some((path) => path.includes('/@opentelemetry/sdk-trace'))).toBe(true);
  });
});

describe('traces off (no OTLP endpoint)', () => {
  it('loads no OpenTelemetry module, and log lines carry no trace ids', async () => {
    const file = watchFile('off');
    const database = await storedDataset('pglite');
    const server = await startChildServer({ MODULE_WATCH_FILE: file, ...database.env }, 90_000, WATCHED);
    try {
      await callerFlow(contractCall(server.url));
      const loaded = await stopAndReadLoaded(server, file);
      expect(loaded).toEqual([]);
      const requests = server.logs.filter((line) => line.msg === 'request');
      expect(requests.length).toBe(4);
      for (const line of requests) expect(line).not.toHaveProperty('trace_id');
    } finally {
      await server.stop();
      await database.drop();
    }
  });
});
