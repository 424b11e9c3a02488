// The typed client against the real server, in-process on each engine: the default client
// for hello, the drafts opt-in for the person operations, a sandbox-configured server where
// drafts do not exist, and a server with a tiny rate limit for the client's 429 retries.
// Every response the client receives, retried attempts included, is checked against the
// contract on its way in (tests/helpers/contractCheckedFetch.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookupDraftsClient } from '../../client/src/drafts.js';
import { createLookupClient, type RetryOptions } from '../../client/src/index.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { contractCheckedFetch, type Exchange } from '../helpers/contractCheckedFetch.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const hello = (companyId: string) => ({ params: { path: { companyId } } });

describe.each(engines)('typed client against the real server on %s', (engine) => {
  let server: TestServer; // development: drafts on
  let sandbox: TestServer; // APP_ENV=sandbox: drafts off
  let limited: TestServer; // one request per second, a burst of one more
  beforeAll(async () => {
    server = await startTestServer({ engine, records: smallDataset() });
    // Same database, other configurations: no second import.
    [sandbox, limited] = await Promise.all([
      startTestServer({ engine, database: server.database, env: { APP_ENV: 'sandbox' } }),
      startTestServer({ engine, database: server.database, env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([sandbox?.close(), limited?.close()]);
    await server?.close(); // owns the database: last
  });

  let exchanges: Exchange[];
  const options = (target: TestServer, token: string, retry?: RetryOptions | false) => {
    const checked = contractCheckedFetch();
    exchanges = checked.exchanges;
    return { baseUrl: target.url, token, fetch: checked.fetch, retry };
  };
  const client = (token = tokens.both, target = server) => createLookupClient(options(target, token));
  const drafts = (token = tokens.both, target = server) => createLookupDraftsClient(options(target, token));

  describe('hello (default client)', () => {
    it('greets an authorized company', async () => {
      const { data, error, response } = await client().GET('/v1/companies/{companyId}/hello', hello('acme-corp'));
      expect(error).toBeUndefined();
      expect(data).toEqual({ message: 'Hello, acme-corp!' });
      expect(response.headers.get('ratelimit-limit')).not.toBeNull();
      expect(exchanges.map((e) => e.status)).toEqual([200]);
    });

    it('gives the typed invalid_api_key for an unknown token, with WWW-Authenticate', async () => {
      const { data, error, response } = await client('plk_not_a_real_token_at_all').GET('/v1/companies/{companyId}/hello', hello('acme-corp'));
      expect(data).toBeUndefined();
      expect(error?.error).toBe('invalid_api_key');
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('gives the typed forbidden for a company outside the credential', async () => {
      const { error, response } = await client(tokens.acme).GET('/v1/companies/{companyId}/hello', hello('globex'));
      expect(error).toEqual({ error: 'forbidden' });
      expect(response.status).toBe(403);
    });

    it('gives the typed invalid_company_id for a malformed company id (path encoded by the client)', async () => {
      const lookup = client();
      for (const companyId of ['-acme', 'bad id', 'x'.repeat(65)]) {
        const { error, response } = await lookup.GET('/v1/companies/{companyId}/hello', hello(companyId));
        expect(error, companyId).toEqual({ error: 'invalid_company_id' });
        expect(response.status).toBe(400);
      }
      expect(exchanges.map((e) => e.path)).toEqual(['/v1/companies/-acme/hello', '/v1/companies/bad%20id/hello', `/v1/companies/${'x'.repeat(65)}/hello`]);
    });
  });

  describe('person operations (drafts opt-in)', () => {
    it('searches with filters: company, name and phone on one employment, external ids selected', async () => {
      const { data, error } = await drafts().POST('/v1/persons/search', {
        body: { companyId: 'acme-corp', firstName: 'ÉMI', phone: '+1 415-555-0132', externalIdSystems: ['payroll'], limit: 10 },
      });
      expect(error).toBeUndefined();
      expect(data!.persons.map((p) => p.id)).toEqual([ids.emile]);
      expect(data!.pagination).toEqual({ limit: 10, offset: 0, total: 1, next: null });
      // Filters select people, never trim their employments; secret-co stays invisible.
      const employments = data!.persons[0]!.employments;
      expect(employments.map((e) => e.companyId)).toEqual(['globex', 'acme-corp']);
      expect(employments.find((e) => e.id === ids.emileAcme)!.externalIds).toEqual([{ system: 'payroll', system_id: 'PR-1' }]);
    });

    it('paginates people: total is exact, a page past the end is empty', async () => {
      const first = await drafts().POST('/v1/persons/search', { body: { lastName: 'dur', limit: 1 } });
      expect(first.data!.persons.map((p) => p.id)).toEqual([ids.ana]);
      expect(first.data!.pagination).toMatchObject({ limit: 1, offset: 0, total: 2, next: expect.any(String) });
      const past = await drafts().POST('/v1/persons/search', { body: { lastName: 'dur', offset: 5 } });
      expect(past.data).toMatchObject({ persons: [], pagination: { offset: 5, total: 2 } });
    });

    it('gets a person, with the repeated externalIdSystems query parameter', async () => {
      const { data, error, response } = await drafts().GET('/v1/persons/{personId}', {
        params: { path: { personId: ids.emile }, query: { externalIdSystems: ['payroll', 'hris'] } },
      });
      expect(error).toBeUndefined();
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(data!.person.id).toBe(ids.emile);
      expect(data!.person.employments.map((e) => e.id)).toEqual([ids.emileGlobex, ids.emileAcme]);
      expect(data!.person.employments[1]!.externalIds).toHaveLength(2);
      expect(data!.person.employments[1]!.participation).toEqual({ decision: 'opt_in', decidedAt: '2025-06-15T11:05:00.000Z' });
    });

    it('gives the typed not_found for a person outside the credential', async () => {
      for (const personId of [ids.hidden, '00000000-0000-4000-8000-000000000000']) {
        const { data, error, response } = await drafts().GET('/v1/persons/{personId}', { params: { path: { personId } } });
        expect(data).toBeUndefined();
        expect(error, personId).toEqual({ error: 'not_found' });
        expect(response.status).toBe(404);
      }
    });

    it('gives the typed invalid_person_id for an id that is not a UUID', async () => {
      const { error, response } = await drafts().GET('/v1/persons/{personId}', { params: { path: { personId: 'not-a-uuid' } } });
      expect(error).toEqual({ error: 'invalid_person_id' });
      expect(response.status).toBe(400);
    });

    it('gives the typed invalid_request, with details, for a search body the contract refuses', async () => {
      // The types forbid this body; a JavaScript caller can still send it.
      const { error, response } = await drafts().POST('/v1/persons/search', { body: { limit: 500 } as never });
      expect(response.status).toBe(400);
      expect(error?.error).toBe('invalid_request');
      expect(error && 'details' in error ? error.details?.length : 0).toBeGreaterThan(0);
    });

    it('finds no draft operation on a sandbox-configured server: 404 draft_unavailable (not an unknown person), hello unaffected', async () => {
      const search = await drafts(tokens.both, sandbox).POST('/v1/persons/search', { body: { lastName: 'dur' } });
      expect(search.error).toEqual({ error: 'draft_unavailable' });
      const get = await drafts(tokens.both, sandbox).GET('/v1/persons/{personId}', { params: { path: { personId: ids.emile } } });
      expect(get.error).toEqual({ error: 'draft_unavailable' });
      const greeting = await client(tokens.both, sandbox).GET('/v1/companies/{companyId}/hello', hello('acme-corp'));
      expect(greeting.data).toEqual({ message: 'Hello, acme-corp!' });
    });
  });

  describe('rate limiting (1 request per second, burst 1)', () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // The limiter's windows are one second long: start each test on fresh ones.
    const freshBudget = () => sleep(1100);

    it('retries a 429 after its Retry-After, then succeeds', async () => {
      await freshBudget();
      const lookup = createLookupClient(options(limited, tokens.acme, { retries: 2, maxDelayMs: 5000 }));
      const results = [];
      for (let i = 0; i < 3; i++) results.push(await lookup.GET('/v1/companies/{companyId}/hello', hello('acme-corp')));
      // Two fit the budget; the third was refused once, waited, and went through.
      expect(results.map((r) => r.data)).toEqual(Array(3).fill({ message: 'Hello, acme-corp!' }));
      expect(exchanges.map((e) => e.status)).toEqual([200, 200, 429, 200]);
      const refused = exchanges[2]!;
      expect(refused.body).toEqual({ error: 'rate_limited' });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(exchanges[3]!.at - refused.at).toBeGreaterThanOrEqual(retryAfter * 1000 - 50);
    });

    it('gives the typed rate_limited back at once when told not to retry', async () => {
      await freshBudget();
      const lookup = createLookupClient(options(limited, tokens.acme, false));
      await lookup.GET('/v1/companies/{companyId}/hello', hello('acme-corp'));
      await lookup.GET('/v1/companies/{companyId}/hello', hello('acme-corp'));
      const started = Date.now();
      const { data, error, response } = await lookup.GET('/v1/companies/{companyId}/hello', hello('acme-corp'));
      expect(Date.now() - started).toBeLessThan(900);
      expect(data).toBeUndefined();
      expect(error).toEqual({ error: 'rate_limited' });
      expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(exchanges.map((e) => e.status)).toEqual([200, 200, 429]);
    });

    it('gives the typed rate_limited back when Retry-After is longer than maxDelayMs', async () => {
      await freshBudget();
      const lookup = createLookupClient(options(limited, tokens.acme, { retries: 2, maxDelayMs: 500 }));
      await lookup.GET('/v1/companies/{companyId}/hello', hello('acme-corp'));
      await lookup.GET('/v1/companies/{companyId}/hello', hello('acme-corp'));
      const { error } = await lookup.GET('/v1/companies/{companyId}/hello', hello('acme-corp'));
      expect(error).toEqual({ error: 'rate_limited' });
      expect(exchanges.map((e) => e.status)).toEqual([200, 200, 429]);
    });

    it('retries a refused search with its body intact', async () => {
      await freshBudget();
      const lookup = drafts(tokens.acme, limited);
      await lookup.GET('/v1/persons/{personId}', { params: { path: { personId: ids.ana } } });
      await lookup.GET('/v1/persons/{personId}', { params: { path: { personId: ids.ana } } });
      const { data } = await lookup.POST('/v1/persons/search', { body: { lastName: 'durá' } });
      expect(data!.persons.map((p) => p.id)).toEqual([ids.ana]);
      expect(exchanges.map((e) => `${e.method} ${e.status}`)).toEqual(['GET 200', 'GET 200', 'POST 429', 'POST 200']);
    });
  });
});
