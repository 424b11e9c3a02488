// HTTP as RFC 9110/9112 and a load balancer expect it: HEAD wherever GET is, a pipelined
// request answered before the malformed one behind it, ambiguous or missing Host and
// Authorization refused, expectations and content codings handled, OPTIONS answered; every
// refusal in the contract's {"error"} shape. Raw sockets for what fetch will not send.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINGER_MS } from '../../server/http/lingeringClose.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { expectContractResponse, expectPublicContractResponse } from '../helpers/contract.js';
import { openRaw, parseResponse, rawExchange } from '../helpers/rawHttp.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Every response in `text`, in order (each with a Content-Length, in bytes, as this server sends them). */
function responsesIn(text: string): ReturnType<typeof parseResponse>[] {
  const out: ReturnType<typeof parseResponse>[] = [];
  let rest = Buffer.from(text);
  while (rest.subarray(0, 9).toString() === 'HTTP/1.1 ') {
    const start = rest.indexOf('\r\n\r\n') + 4;
    const head = parseResponse(rest.subarray(0, start).toString());
    const length = head.status === 100 ? 0 : Number(head.headers['content-length'] ?? 0);
    out.push({ ...head, body: rest.subarray(start, start + length).toString() });
    rest = rest.subarray(start + length);
  }
  return out;
}

const hello = (token = tokens.both) => `GET /v1/companies/acme-corp/hello HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`;
const search = (body: string, extra = '') =>
  `POST /v1/persons/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.both}\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('HTTP conformance', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ records: smallDataset() });
  });
  afterAll(() => server?.close());

  describe('pipelining', () => {
    it.each([
      ['hello', [hello()]],
      ['a search (a database round trip)', [search('{"lastName":"dur"}')]],
      ['two requests', [search('{"lastName":"dur"}'), hello()]],
    ])('answers %s before the malformed request behind it, then closes', async (_, valid) => {
      const exchange = await rawExchange(server.url, `${valid.join('')}NOT HTTP AT ALL\r\n\r\n`);
      const answers = responsesIn(exchange.text);
      expect(
        answers.map((a) => a.status),
        exchange.text.replace(/\{.*\}/g, '{…}'),
      ).toEqual([...valid.map(() => 200), 400]);
      expect(JSON.parse(answers.at(-1)!.body)).toEqual({ error: 'invalid_request' });
      expect(answers.at(-1)!.headers.connection).toBe('close');
      expect(exchange.closedByServer).toBe(true);
    });
  });

  describe('a body whose framing is malformed', () => {
    const head = (codings: string) =>
      `POST /v1/persons/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.both}\r\nContent-Type: application/json\r\nTransfer-Encoding: ${codings}\r\n\r\n`;
    const framings = [
      ['an unknown transfer coding', `${head('xchunked')}{"lastName":"dur"}`],
      ['a chunk size of 18 hex digits', `${head('chunked')}ffffffffffffffffff\r\n{"lastName":"dur"}\r\n0\r\n\r\n`],
      ['chunk lines ending in a bare LF', `${head('chunked')}12\n{"lastName":"dur"}\n0\n\n`],
    ];

    it.each(framings)('%s: 400 invalid_request at once, and the connection closes', async (_, request) => {
      const exchange = await rawExchange(server.url, request);
      const answers = responsesIn(exchange.text);
      expect(
        answers.map((a) => a.status),
        exchange.text,
      ).toEqual([400]);
      expect(JSON.parse(answers[0]!.body)).toEqual({ error: 'invalid_request' });
      expect(answers[0]!.headers.connection).toBe('close');
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.ms).toBeLessThan(3_000);
      expectContractResponse('POST', '/v1/persons/search', 400, new Headers(answers[0]!.headers), JSON.parse(answers[0]!.body));
    });

    it.each(framings)('%s behind a pipelined valid request: its answer first, then the 400', async (_, request) => {
      const exchange = await rawExchange(server.url, search('{"lastName":"dur"}') + request);
      const answers = responsesIn(exchange.text);
      expect(
        answers.map((a) => a.status),
        exchange.text.replace(/\{.*\}/g, '{…}'),
      ).toEqual([200, 400]);
      expect(JSON.parse(answers[1]!.body)).toEqual({ error: 'invalid_request' });
      expect(exchange.closedByServer).toBe(true);
    });

    it('to hello, whose answer needs no body: one answer, never a second one after it', async () => {
      const request = `GET /v1/companies/acme-corp/hello HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.acme}\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n`;
      // The first asks the database for the credential (the body's fault is seen before the
      // answer); the second finds it cached (hello may have answered before the fault).
      for (const attempt of ['credential looked up', 'credential cached']) {
        const exchange = await rawExchange(server.url, request);
        const answers = responsesIn(exchange.text);
        expect(answers, `${attempt}: ${exchange.text}`).toHaveLength(1);
        expect([200, 400]).toContain(answers[0]!.status);
        expect(answers[0]!.headers.connection).toBe('close');
        expect(exchange.closedByServer).toBe(true);
        expectContractResponse('GET', '/v1/companies/acme-corp/hello', answers[0]!.status, new Headers(answers[0]!.headers), JSON.parse(answers[0]!.body));
      }
    });

    it('a client that keeps its side open gets the answer and a FIN, and is let go within the lingering bound', async () => {
      const connections = () => new Promise<number>((resolve, reject) => server.app.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
      const connection = await openRaw(server.url, 15_000, { allowHalfOpen: true });
      const finReceived = new Promise((resolve) => connection.socket.once('end', resolve));
      connection.socket.write(framings[1]![1]!);
      await finReceived;
      const sent = performance.now();
      await expect.poll(connections, { timeout: LINGER_MS + 2_000, interval: 100 }).toBe(0);
      expect(performance.now() - sent).toBeLessThan(LINGER_MS + 1_000);
      connection.socket.destroy();
      expect(responsesIn((await connection.done).text).map((a) => a.status)).toEqual([400]);
    });
  });

  describe("hello's protocol errors, as the public contract states them", () => {
    const helloPath = '/v1/companies/acme-corp/hello';
    const auth = `Authorization: Bearer ${tokens.both}\r\n`;
    it.each([
      ['no Host', `GET ${helloPath} HTTP/1.1\r\n${auth}\r\n`, 400],
      ['Host twice', `GET ${helloPath} HTTP/1.1\r\nHost: a\r\nHost: b\r\n${auth}\r\n`, 400],
      ['Authorization twice', `GET ${helloPath} HTTP/1.1\r\nHost: x\r\n${auth}${auth}\r\n`, 400],
      ['Content-Type twice', `GET ${helloPath} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: a/b\r\nContent-Type: c/d\r\n\r\n`, 400],
      ['an unknown transfer coding', `GET ${helloPath} HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: xchunked\r\n\r\nabc`, 400],
      ['an expectation other than 100-continue', `GET ${helloPath} HTTP/1.1\r\nHost: x\r\n${auth}Expect: teapot\r\n\r\n`, 417],
    ])('%s: %i invalid_request, valid by the public bundle', async (_, request, status) => {
      const exchange = await rawExchange(server.url, request);
      const answers = responsesIn(exchange.text);
      expect(
        answers.map((a) => a.status),
        exchange.text,
      ).toEqual([status]);
      const body = JSON.parse(answers[0]!.body);
      expect(body).toEqual({ error: 'invalid_request' });
      expectPublicContractResponse('GET', helloPath, status, new Headers(answers[0]!.headers), body);
      expect(exchange.closedByServer).toBe(true);
    });
  });

  describe('HEAD', () => {
    it.each([
      ['/healthz', undefined],
      ['/readyz', undefined],
      ['/openapi.json', undefined],
      ['/docs', undefined],
      ['/v1/companies/acme-corp/hello', tokens.both],
      ['/v1/companies/secret-co/hello', tokens.both],
      [`/v1/persons/${ids.emile}`, tokens.both],
      ['/v1/companies/acme-corp/hello', undefined],
    ])('%s answers as GET does, without the body', async (path, token) => {
      const headers = token ? { authorization: `Bearer ${token}` } : undefined;
      const get = await fetch(server.url + path, { headers });
      const getBody = await get.arrayBuffer();
      const head = await server.call('HEAD', path, { headers });
      expect(head.status).toBe(get.status);
      expect(head.body).toBe('');
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      if (path !== '/openapi.json' && path !== '/docs') expect(Number(head.headers.get('content-length'))).toBe(getBody.byteLength);
      expect(head.headers.get('x-request-id')).toBeTruthy();
    });

    it('is 404 where there is no GET', async () => {
      expect((await server.call('HEAD', '/v1/companies/acme-corp', { token: tokens.both })).status).toBe(404);
    });
  });

  describe('headers that must be there once', () => {
    it.each([
      ['two Host headers', `GET /healthz HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n`],
      [
        'two Authorization headers',
        `GET /v1/companies/acme-corp/hello HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.acme}\r\nAuthorization: Bearer ${tokens.both}\r\n\r\n`,
      ],
      ['two Host headers, spelled differently', `GET /healthz HTTP/1.1\r\nhost: a.example\r\nHOST: b.example\r\n\r\n`],
      [
        'two Authorization headers, spelled differently',
        `GET /v1/companies/acme-corp/hello HTTP/1.1\r\nHost: x\r\nauthorization: Bearer ${tokens.acme}\r\nAuThOrIzAtIoN: Bearer ${tokens.both}\r\n\r\n`,
      ],
      ['two Content-Type headers', search('{}', 'Content-Type: text/plain\r\n')],
      ['no Host in HTTP/1.1', 'GET /healthz HTTP/1.1\r\n\r\n'],
    ])('%s: 400 invalid_request in the contract shape, and the connection closes', async (_, request) => {
      const exchange = await rawExchange(server.url, request);
      const res = parseResponse(exchange.text);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ error: 'invalid_request' });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.connection).toBe('close');
      expect(exchange.closedByServer).toBe(true);
    });

    it('HTTP/1.0 needs no Host', async () => {
      const res = parseResponse((await rawExchange(server.url, 'GET /healthz HTTP/1.0\r\n\r\n')).text);
      expect(res.status).toBe(200);
    });
  });

  describe('Expect', () => {
    it('an expectation other than 100-continue: 417 in the contract shape', async () => {
      const exchange = await rawExchange(server.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n`);
      const res = parseResponse(exchange.text);
      expect(res.status).toBe(417);
      expect(JSON.parse(res.body)).toEqual({ error: 'invalid_request' });
    });

    it.each([
      ['POST', '/v1/persons/search'],
      ['GET', `/v1/persons/${ids.emile}`],
    ])('%s %s: 417 as the contract declares it for the person operations', async (method, path) => {
      const exchange = await rawExchange(server.url, `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.both}\r\nExpect: teapot\r\n\r\n`);
      const res = parseResponse(exchange.text);
      expect(res.status).toBe(417);
      expectContractResponse(method, path, 417, new Headers(res.headers), JSON.parse(res.body));
    });

    it('100-continue: "100 Continue" once the body is wanted, then the answer', async () => {
      const body = '{"lastName":"dur"}';
      const connection = await openRaw(server.url);
      connection.socket.write(
        `POST /v1/persons/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.both}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      );
      await expect.poll(() => connection.socket.bytesRead).toBeGreaterThan(0);
      connection.socket.write(body);
      const answers = responsesIn((await connection.done).text);
      expect(answers.map((a) => a.status)).toEqual([100, 200]);
    });

    it('100-continue from a caller without a valid token: 401, and the body is never asked for', async () => {
      const exchange = await rawExchange(
        server.url,
        `POST /v1/persons/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer plk_wrong_000000000000000\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n`,
      );
      const answers = responsesIn(exchange.text);
      expect(answers.map((a) => a.status)).toEqual([401]);
      expect(answers[0]!.headers.connection).toBe('close');
    });
  });

  describe('Content-Encoding', () => {
    it('a compressed JSON body is refused with 415 and the coding that is accepted', async () => {
      const res = await server.call('POST', '/v1/persons/search', {
        token: tokens.both,
        rawBody: gzipSync('{"lastName":"dur"}') as unknown as string,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: 'unsupported_media_type' });
      expect(res.headers.get('accept-encoding')).toBe('identity');
    });

    it('identity is no coding at all', async () => {
      const res = await server.call('POST', '/v1/persons/search', {
        token: tokens.both,
        body: { lastName: 'dur' },
        headers: { 'content-encoding': 'identity' },
      });
      expect(res.status).toBe(200);
    });
  });

  describe('request targets', () => {
    it('the absolute form a proxy sends is the same request', async () => {
      const res = parseResponse(
        (
          await rawExchange(
            server.url,
            `GET http://api.example.com/v1/companies/acme-corp/hello?x=1 HTTP/1.1\r\nHost: api.example.com\r\nAuthorization: Bearer ${tokens.both}\r\nConnection: close\r\n\r\n`,
          )
        ).text,
      );
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ message: 'Hello, acme-corp!' });
    });

    it('CONNECT (this is no proxy): 404 in the contract shape, not a silent close', async () => {
      const exchange = await rawExchange(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      const res = parseResponse(exchange.text);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ error: 'not_found' });
      expect(exchange.closedByServer).toBe(true);
    });
  });

  describe('OPTIONS', () => {
    it('on a route: 204 with the methods it allows, no token needed', async () => {
      const hello = await server.call('OPTIONS', '/v1/companies/acme-corp/hello');
      expect(hello.status).toBe(204);
      expect(hello.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect((await server.call('OPTIONS', `/v1/persons/${ids.emile}`)).headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      // GET /v1/persons/search is Get person on the id "search" (400 invalid_person_id).
      expect((await server.call('OPTIONS', '/v1/persons/search')).headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    });

    it('on the server as a whole (OPTIONS *): 204 with every method', async () => {
      const res = parseResponse((await rawExchange(server.url, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text);
      expect(res.status).toBe(204);
      expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    });

    it('elsewhere: 404', async () => {
      const res = await server.call('OPTIONS', '/v1/nowhere');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found' });
    });
  });

  describe('a method the path does not serve', () => {
    it.each([
      ['POST', '/v1/companies/acme-corp/hello', 'GET, HEAD, OPTIONS'],
      ['DELETE', `/v1/persons/${ids.emile}`, 'GET, HEAD, OPTIONS'],
      ['PUT', '/v1/persons/search', 'GET, HEAD, POST, OPTIONS'],
      ['PATCH', '/healthz', 'GET, HEAD, OPTIONS'],
    ])('%s %s: 405 with Allow %s, before authentication', async (method, path, allow) => {
      const res = await server.call(method, path, { token: tokens.both, body: {} });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body).toEqual({ error: 'method_not_allowed' });
      expect((await server.call(method, path)).status, 'without a token').toBe(405);
    });

    it('an unknown path stays 404 whatever the method', async () => {
      const res = await server.call('POST', '/v1/companies/acme-corp/goodbye', { token: tokens.both, body: {} });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found' });
      expect(res.headers.get('allow')).toBeNull();
    });
  });

  it('still serves normally after all of that', async () => {
    expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both })).status).toBe(200);
  });
});
