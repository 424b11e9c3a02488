// Request bodies and environments: media type, size, JSON syntax and depth, and the
// draft operations answering draft_unavailable where drafts are off.
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

  it('answer 404 draft_unavailable, not an unknown person, whatever the token; hello works', async () => {
    for (const token of [tokens.both, undefined, 'plk_not_a_token_00000000000']) {
      const search = await server.call('POST', '/v1/persons/search', { token, body: {} });
      expect([search.status, search.body]).toEqual([404, { error: 'draft_unavailable' }]);
      const get = await server.call('GET', `/v1/persons/${ids.emile}`, { token });
      expect([get.status, get.body]).toEqual([404, { error: 'draft_unavailable' }]);
      const employees = await server.call('POST', '/v1/employees/search', { token, body: {} });
      expect([employees.status, employees.body]).toEqual([404, { error: 'draft_unavailable' }]);
    }
    // Malformed input changes nothing: the operation is not there to validate it.
    expect((await server.call('GET', '/v1/persons/not-a-uuid', { token: tokens.both })).body).toEqual({ error: 'draft_unavailable' });
    expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both })).status).toBe(200);
  });

  it('their paths answer OPTIONS (a preflight passes, so a page reads the code) and other methods 405', async () => {
    const options = await server.call('OPTIONS', '/v1/persons/search');
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, HEAD, POST, OPTIONS']);
    const other = await server.call('DELETE', `/v1/persons/${ids.emile}`, { token: tokens.both });
    expect([other.status, other.body, other.headers.get('allow')]).toEqual([405, { error: 'method_not_allowed' }, 'GET, HEAD, OPTIONS']);
    expect((await server.call('GET', '/v1/nothing-here', { token: tokens.both })).body).toEqual({ error: 'not_found' });
  });
});
