// Hello over real HTTP on each engine: success, every failure code, and the order of checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDataset, tokens } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(engines)('hello on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, records: smallDataset() });
  });
  afterAll(() => server?.close());

  it('greets an authorized company with 200 and rate-limit headers', async () => {
    const res = await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Hello, acme-corp!' });
    expect(res.headers.get('ratelimit-remaining')).not.toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ['no header', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
    ['an unknown token', 'Bearer plk_not_a_real_token_at_all'],
  ])('answers 401 invalid_api_key with WWW-Authenticate for %s', async (_, authorization) => {
    const res = await server.call('GET', '/v1/companies/acme-corp/hello', { headers: authorization ? { authorization } : {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_api_key' });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each(['bad id', '-leading-dash', 'x'.repeat(65), 'semi;colon', 'ünïcode'])('answers 400 invalid_company_id for %j', async (companyId) => {
    const res = await server.call('GET', `/v1/companies/${encodeURIComponent(companyId)}/hello`, { token: tokens.both });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_company_id' });
  });

  it('answers 403 forbidden alike for a company that exists elsewhere and one that does not', async () => {
    const existing = await server.call('GET', '/v1/companies/secret-co/hello', { token: tokens.both });
    const missing = await server.call('GET', '/v1/companies/no-such-company/hello', { token: tokens.both });
    expect(existing.status).toBe(403);
    expect(existing.body).toEqual({ error: 'forbidden' });
    expect(missing.status).toBe(existing.status);
    expect(missing.body).toEqual(existing.body);
  });

  it('accepts the Bearer scheme in any case (RFC 7235)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await server.call('GET', '/v1/companies/acme-corp/hello', { headers: { authorization: `${scheme} ${tokens.both}` } });
      expect(res.status, scheme).toBe(200);
    }
  });

  it('checks authentication before validation, and validation before authorization', async () => {
    const unauthenticated = await server.call('GET', '/v1/companies/bad%20id/hello');
    expect(unauthenticated.status).toBe(401);
    const malformedAndForeign = await server.call('GET', '/v1/companies/bad%20id/hello', { token: tokens.acme });
    expect(malformedAndForeign.status).toBe(400);
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const mine = await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both, headers: { 'x-request-id': 'trace-42.abc' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-42.abc');
    const unsafe = await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both, headers: { 'x-request-id': 'a b<script>' } });
    expect(unsafe.headers.get('x-request-id')).not.toContain('<');
  });

  it('answers 404 not_found on unknown routes, authenticated or not', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nope'],
      ['DELETE', '/v1/nope'],
      ['GET', '/v1/companies/acme-corp/hello/'],
      ['GET', '/'],
    ]) {
      const res = await server.call(method!, path!, { token: tokens.both });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ error: 'not_found' });
    }
  });

  it('answers 405 method_not_allowed with Allow to a method hello does not serve', async () => {
    const res = await server.call('DELETE', '/v1/companies/acme-corp/hello', { token: tokens.both });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'method_not_allowed' });
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
