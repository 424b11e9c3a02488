// Request bodies and environments: media type, size, JSON syntax and depth, and the
// draft operations being absent where drafts are off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('request bodies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ records: smallDataset(), env: { BODY_LIMIT_BYTES: '1024', MAX_JSON_DEPTH: '8' } });
  });
  afterAll(() => server?.close());
  const search = (options: Parameters<TestServer['call']>[2]) => server.call('POST', '/v1/persons/search', { token: tokens.both, ...options });

  it('415 for a body that is not JSON', async () => {
    const res = await search({ rawBody: 'lastName=dur', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'unsupported_media_type' });
  });

  it('413 for a body over the limit, declared or streamed', async () => {
    const big = { lastName: 'x'.repeat(2000) };
    expect((await search({ body: big })).body).toEqual({ error: 'payload_too_large' });
  });

  it('400 invalid_request for malformed JSON, too deep JSON, or a missing body', async () => {
    for (const rawBody of ['{"lastName": "dur"', '[[[[[[[[[[[[1]]]]]]]]]]]]']) {
      const res = await search({ rawBody, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    }
    const empty = await search({ headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(400);
  });

  it('accepts application/json with a charset', async () => {
    const res = await search({ rawBody: '{"lastName":"dur"}', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(res.status).toBe(200);
  });

  it('401 comes before 415 and 413: nothing is read from an unauthenticated caller', async () => {
    const res = await server.call('POST', '/v1/persons/search', { rawBody: 'x'.repeat(5000), headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(401);
  });
});

describe.each(['sandbox', 'production'])('draft operations in %s', (environment) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ records: smallDataset(), env: { APP_ENV: environment } });
  });
  afterAll(() => server?.close());

  it('answer 404 not_found as if they did not exist, while hello works', async () => {
    const search = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: {} });
    expect(search.status).toBe(404);
    expect(search.body).toEqual({ error: 'not_found' });
    const get = await server.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.both });
    expect(get.status).toBe(404);
    expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both })).status).toBe(200);
  });

  it('their paths answer other methods and OPTIONS 404 too, not 405 or an Allow that names them', async () => {
    for (const [method, path] of [
      ['GET', '/v1/persons/search'],
      ['DELETE', `/v1/persons/${ids.emile}`],
      ['OPTIONS', '/v1/persons/search'],
      ['OPTIONS', `/v1/persons/${ids.emile}`],
    ] as const) {
      const res = await server.call(method, path, { token: tokens.both });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ error: 'not_found' });
      expect(res.headers.get('allow')).toBeNull();
    }
  });
});
