// Bodies the server does not want: too large, unauthenticated, to an unknown route, to an
// operation that takes none. Whatever the request, the server reads at most
// BODY_LIMIT_BYTES (and a socket read of slack) before it answers, and the client reliably
// gets that answer: the connection is then closed the lingering way (half-closed, the
// rest discarded within LINGER_BYTES and LINGER_MS), not reset under the client's upload.
// Raw sockets, because fetch will not send a body on GET, nor keep sending after an answer.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINGER_BYTES, LINGER_MS } from '../../server/http/lingeringClose.js';
import { smallDataset, tokens } from '../fixtures/small.js';
import { expectContractResponse } from '../helpers/contract.js';
import { parseResponse, upload } from '../helpers/rawHttp.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const BODY_LIMIT = 16 * 1024;
const MB = 1024 * 1024;
const SLACK = 64 * 1024; // one socket read

describe('request bodies the server does not read', () => {
  let server: TestServer;
  /** Bytes each connection had read when its answer was written, and when it closed. */
  const reads: { atAnswer: number; atClose?: number }[] = [];
  beforeAll(async () => {
    server = await startTestServer({ records: smallDataset(), env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
    server.app.server.on('request', (req, res) => {
      const socket = req.socket as Socket;
      const read: (typeof reads)[number] = { atAnswer: 0 };
      res.once('finish', () => (read.atAnswer = socket.bytesRead));
      socket.once('close', () => {
        read.atClose = socket.bytesRead;
        reads.push(read);
      });
    });
  });
  afterAll(() => server?.close());

  const head = (requestLine: string, token?: string, contentType = 'application/json') =>
    `${requestLine} HTTP/1.1\r\nHost: x\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}Content-Type: ${contentType}\r\n`;
  const cases = [
    ['an unknown route', head('POST /v1/nowhere'), 404, 'not_found'],
    ['a bad token', head('POST /v1/persons/search', 'plk_not_a_real_token_0000000'), 401, 'invalid_api_key'],
    ['no token', head('POST /v1/persons/search'), 401, 'invalid_api_key'],
    ['hello, which takes no body', head('GET /v1/companies/acme-corp/hello', tokens.both), 200, undefined],
    ['a body that is not JSON', head('POST /v1/persons/search', tokens.both, 'text/plain'), 415, 'unsupported_media_type'],
    ['a body over the limit', head('POST /v1/persons/search', tokens.both), 413, 'payload_too_large'],
    ['the health check', head('GET /healthz'), 200, undefined],
  ] as const;

  describe.each([false, true])('chunked: %s', (chunked) => {
    it.each(cases)('%s: answered while 8 MB are on their way, having read at most the limit', async (_, requestHead, status, error) => {
      const before = reads.length;
      const sent = await upload(server.url, requestHead, 8 * MB, { chunked, readWhileSending: true });
      const res = parseResponse(sent.text);
      expect(res.status, sent.text.slice(0, 200)).toBe(status);
      if (error) expect(JSON.parse(res.body)).toEqual({ error });
      expect(res.headers.connection).toBe('close');
      expect(res.headers['x-request-id']).toBeTruthy();
      const [method, path] = requestHead.split(' ');
      expectContractResponse(method!, path!, res.status, new Headers(res.headers), error ? JSON.parse(res.body) : JSON.parse(res.body || '{}'));
      expect(sent.ms).toBeLessThan(LINGER_MS + 3_000);
      await expect.poll(() => reads.length, { timeout: LINGER_MS + 2_000 }).toBeGreaterThan(before);
      const read = reads.at(-1)!;
      expect(read.atAnswer, 'read before answering').toBeLessThanOrEqual(requestHead.length + 100 + BODY_LIMIT + SLACK);
      expect(read.atClose!, 'read in all').toBeLessThanOrEqual(requestHead.length + 100 + BODY_LIMIT + LINGER_BYTES + 2 * SLACK);
    });
  });

  it.each([
    ['declared', false],
    ['chunked', true],
  ])('a %s body over the limit: a client that sends 5 MB before it reads anything still gets its 413, every time', async (_, chunked) => {
    // More than the kernel's buffers hold on this loopback, less than they and LINGER_BYTES do.
    for (let i = 0; i < 5; i++) {
      const sent = await upload(server.url, head('POST /v1/persons/search', tokens.both), 5 * MB, { chunked, readWhileSending: false });
      expect(parseResponse(sent.text).status, `try ${i + 1}: ${sent.ended}, ${sent.bodyBytesWritten} bytes written`).toBe(413);
    }
  });

  it('still serves normally afterwards', async () => {
    expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both })).status).toBe(200);
  });
});
