// Limits on what a client may send and how long it may take, each configurable and each
// answered the contract's way: body size, nesting, slow or malformed requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { smallDataset, tokens } from '../fixtures/small.js';
import { openRaw, parseResponse, rawExchange } from '../helpers/rawHttp.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const BODY_LIMIT = 2048;
const HEADERS_TIMEOUT = 600;
const REQUEST_TIMEOUT = 1200;

describe('request limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      records: smallDataset(),
      env: {
        BODY_LIMIT_BYTES: String(BODY_LIMIT),
        MAX_JSON_DEPTH: '6',
        HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT),
        REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT),
      },
    });
  });
  afterAll(() => server?.close());

  const searchHead = (extra: string) =>
    `POST /v1/persons/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.both}\r\nContent-Type: application/json\r\n${extra}\r\n`;

  it('answers 413 to a declared Content-Length over the limit without waiting for the body, and closes', async () => {
    const exchange = await rawExchange(server.url, searchHead(`Content-Length: ${BODY_LIMIT + 1}\r\n`));
    const res = parseResponse(exchange.text);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: 'payload_too_large' });
    expect(res.headers.connection).toBe('close');
    expect(exchange.closedByServer).toBe(true);
  });

  it('answers 413 to a chunked body that grows past the limit', async () => {
    const body = JSON.stringify({ lastName: 'x'.repeat(BODY_LIMIT) });
    const chunked = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const res = parseResponse((await rawExchange(server.url, searchHead('Transfer-Encoding: chunked\r\n') + chunked)).text);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: 'payload_too_large' });
  });

  it('answers 400 invalid_request to JSON nested deeper than MAX_JSON_DEPTH, before parsing it', async () => {
    const res = await server.call('POST', '/v1/persons/search', {
      token: tokens.both,
      rawBody: `${'{"a":'.repeat(7)}1${'}'.repeat(7)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: '/body', message: 'the request body nests deeper than 6 levels' }]);
  });

  it('closes the connection of a client that does not finish its headers within HEADERS_TIMEOUT_MS', async () => {
    const exchange = await rawExchange(server.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', 10_000);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.text).toBe('');
    expect(exchange.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT - 50);
    // The timeout is checked every second at most (node's default is every 30 s); the
    // margin is for a busy machine.
    expect(exchange.ms).toBeLessThan(HEADERS_TIMEOUT + 3_000);
  });

  it('closes the connection of a client that does not finish its body within REQUEST_TIMEOUT_MS', async () => {
    const connection = await openRaw(server.url, 10_000);
    connection.socket.write(`${searchHead('Content-Length: 20\r\n')}{"lastName":`);
    const exchange = await connection.done;
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.text).toBe('');
    expect(exchange.ms).toBeLessThan(REQUEST_TIMEOUT + 3_000);
  });

  it.each([
    ['a Content-Length that is not a number', 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n'],
    ['headers over the 16 KiB limit', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    [
      'both Content-Length and Transfer-Encoding (request smuggling)',
      `${searchHead('Content-Length: 2\r\nTransfer-Encoding: chunked\r\n')}2\r\n{}\r\n0\r\n\r\n`,
    ],
  ])('answers %s with the contract error body 400 invalid_request and closes', async (_, request) => {
    const exchange = await rawExchange(server.url, request);
    const res = parseResponse(exchange.text);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: 'invalid_request' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(exchange.closedByServer).toBe(true);
  });

  it('still serves normally after all of that', async () => {
    expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both })).status).toBe(200);
  });
});

describe('limit configuration', () => {
  it('refuses a headers timeout longer than the request timeout, in the operator terms', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' })).toThrow(ConfigError);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' })).toThrow(/HEADERS_TIMEOUT_MS.*REQUEST_TIMEOUT_MS/);
  });

  it.each([
    'BODY_LIMIT_BYTES',
    'MAX_JSON_DEPTH',
    'HEADERS_TIMEOUT_MS',
    'REQUEST_TIMEOUT_MS',
    'PG_STATEMENT_TIMEOUT_MS',
    'PG_CONNECTION_TIMEOUT_MS',
    'PG_POOL_MAX',
    'SHUTDOWN_TIMEOUT_MS',
    'RATE_LIMIT_BURST',
  ])('reads %s and rejects a value that is not a sane integer', (name) => {
    expect(() => loadConfig({ [name]: 'lots' })).toThrow(new RegExp(name));
    expect(() => loadConfig({ [name]: '-1' })).toThrow(ConfigError);
  });

  it('maps each limit to its setting', () => {
    const config = loadConfig({
      BODY_LIMIT_BYTES: '4096',
      MAX_JSON_DEPTH: '9',
      PG_STATEMENT_TIMEOUT_MS: '250',
      PG_CONNECTION_TIMEOUT_MS: '750',
      PG_POOL_MAX: '3',
      RATE_LIMIT_KEY_PREFIX: 'blue',
    });
    expect(config).toMatchObject({
      bodyLimitBytes: 4096,
      maxJsonDepth: 9,
      statementTimeoutMs: 250,
      connectionTimeoutMs: 750,
      poolMax: 3,
      rateLimitKeyPrefix: 'blue',
    });
  });
});
