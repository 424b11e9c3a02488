// Logs, metrics and error bodies under real traffic: every log line of a request carries
// its request id and none carries a token or personal data, not even when the database
// fails with the search terms in hand; 500 bodies hold nothing but the code; personal
// responses are never cacheable; /metrics counts what happened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecords } from '../../server/importing/index.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { captureLogs, type LogCapture } from '../helpers/logCapture.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Personal data of the fixture that requests and responses below carry.
const secrets = [tokens.both, tokens.acme, 'Durand', 'durand', 'Émile', 'émile', 'Durán', '4155550132', '415) 555', 'test@example.com', 'someone@example.org'];

describe('observability without leaks', () => {
  let database: ThrowawayDatabase;
  let server: TestServer;
  let logs: LogCapture;
  beforeAll(async () => {
    database = await throwawayDatabase('pglite');
    await importRecords(database.db, smallDataset(), 'US');
    logs = captureLogs('info');
    // A budget that does not refill within the file (burst of 30 over 30 s), so the metrics
    // test can spend it whatever the speed of this machine.
    server = await startTestServer({ database, env: { LOG_LEVEL: 'info', RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '30' }, logger: logs.logger });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it("logs each request with its request id (the caller's, or a generated one echoed back)", async () => {
    const mine = await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both, headers: { 'x-request-id': 'hardening-trace-1' } });
    expect(mine.headers.get('x-request-id')).toBe('hardening-trace-1');
    const generated = await server.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.both });
    const generatedId = generated.headers.get('x-request-id')!;
    const lines = logs.lines().filter((l) => l.msg === 'request');
    expect(lines.find((l) => l.requestId === 'hardening-trace-1')).toMatchObject({ route: 'hello', status: 200, method: 'GET' });
    expect(lines.find((l) => l.requestId === generatedId)).toMatchObject({ route: 'getPerson', status: 200 });
  });

  it('sends personal data only with Cache-Control: no-store', async () => {
    const search = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { lastName: 'Durand' } });
    expect(search.status).toBe(200);
    expect(search.body.persons.length).toBeGreaterThan(0);
    expect(search.headers.get('cache-control')).toBe('no-store');
    const person = await server.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.both });
    expect(person.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a failure of the database with a bare internal_error, and logs it with the request id but without the search terms', async () => {
    // A real database error in the middle of a search: the column the name filter reads is gone.
    await database.db.query('ALTER TABLE employees RENAME COLUMN last_name_folded TO last_name_folded_gone');
    try {
      const res = await server.call('POST', '/v1/persons/search', {
        token: tokens.both,
        body: { lastName: 'Durand', firstName: 'Émile', phone: '(415) 555-0132' },
        headers: { 'x-request-id': 'hardening-trace-500' },
      });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'internal_error' });
      const raw = JSON.stringify(res.body) + [...res.headers].join();
      for (const leak of ['stack', ' at ', 'SELECT', 'employees', 'last_name_folded', '/work/', 'node_modules', '.ts:']) expect(raw).not.toContain(leak);
    } finally {
      await database.db.query('ALTER TABLE employees RENAME COLUMN last_name_folded_gone TO last_name_folded');
    }
    const failure = logs.lines().find((l) => l.msg === 'request failed' && l.requestId === 'hardening-trace-500');
    expect(failure, 'the failure is logged with its request id').toBeDefined();
    expect(failure!.err.message).toMatch(/last_name_folded/); // the operator still learns what broke
    expect(failure!.err).not.toHaveProperty('params');
    expect(failure!.err).not.toHaveProperty('query');
  });

  it('never writes a token, name, phone or email to the log', async () => {
    // Requests that carry every kind of secret, in every place a request can carry one.
    await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.acme });
    await server.call('GET', '/v1/companies/acme-corp/hello', { token: `${tokens.both}x` }); // 401
    await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { email: 'someone@example.org', lastName: 'Durand' } }); // 400
    await server.call('POST', '/v1/persons/search', { token: tokens.both, rawBody: '{"lastName": "Durand"', headers: { 'content-type': 'application/json' } }); // 400
    await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { phone: '(415) 555-0132' } });
    await server.call('GET', `/v1/persons/${ids.emile}?externalIdSystems=Durand`, { token: tokens.both });
    const text = logs.text();
    expect(logs.lines().length).toBeGreaterThan(8);
    for (const secret of secrets) expect(text, `log holds ${secret}`).not.toContain(secret);
  });

  it('exposes Prometheus metrics: requests by operation and status, latency, rate-limit rejections, bounded labels', async () => {
    for (let i = 0; i < 60; i++) await server.call('GET', '/v1/companies/globex/hello', { token: tokens.acme });
    for (const path of ['/docs/one', '/docs/two/three']) await fetch(server.url + path);
    const res = await fetch(`${server.url}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const value = (pattern: RegExp) => Number(text.match(pattern)?.[1] ?? NaN);
    expect(value(/http_requests_total\{route="searchPersons",method="POST",status="200"\} (\d+)/)).toBeGreaterThanOrEqual(2);
    expect(value(/http_requests_total\{route="searchPersons",method="POST",status="500"\} (\d+)/)).toBe(1);
    expect(value(/http_requests_total\{route="hello",method="GET",status="403"\} (\d+)/)).toBeGreaterThanOrEqual(20);
    expect(value(/rate_limit_rejections_total\{route="hello"\} (\d+)/)).toBeGreaterThanOrEqual(10);
    expect(value(/http_request_duration_seconds_count\{route="getPerson"\} (\d+)/)).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.1",route="hello"\} \d+/);
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
    // Paths callers invent do not become label values.
    expect(text).toContain('route="/docs/*"');
    expect(text).not.toContain('/docs/one');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
