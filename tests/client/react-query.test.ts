// @lookup/client/react-query run by TanStack Query's own QueryClient (what useQuery and
// useInfiniteQuery drive): against the real server for the data and the errors, and against a
// local server for the retries, counted. Every response from the real server is checked
// against the contract on its way in.
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookupDraftsClient } from '../../client/src/drafts.js';
import { createLookupClient, LookupApiError } from '../../client/src/index.js';
import { createLookupQueries } from '../../client/src/react-query.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { contractCheckedFetch } from '../helpers/contractCheckedFetch.js';
import { json, type LocalServer, startLocalServer } from '../helpers/localServer.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let local: LocalServer;
beforeAll(async () => {
  [server, local] = await Promise.all([startTestServer({ records: smallDataset() }), startLocalServer()]);
});
afterAll(async () => {
  await Promise.all([server?.close(), local?.close()]);
});

/** TanStack's defaults as an app leaves them: three retries with backoff, unless an option says otherwise. */
const queryClient = () => new QueryClient();
const lookup = (token = tokens.both) => createLookupQueries(createLookupDraftsClient({ baseUrl: server.url, token, fetch: contractCheckedFetch().fetch }));

describe('query options', () => {
  it('fetch hello, a person and a page of people, as the client does', async () => {
    const queries = lookup();
    const client = queryClient();
    expect(await client.fetchQuery(queries.hello('acme-corp'))).toEqual({ message: 'Hello, acme-corp!' });
    const { person } = await client.fetchQuery(queries.getPerson(ids.emile, { externalIdSystems: ['payroll'] }));
    expect(person.id).toBe(ids.emile);
    expect(person.employments.flatMap((e) => (e.externalIds ?? []).map((x) => x.system))).toEqual(['payroll']);
    const page = await client.fetchQuery(queries.searchPersons({ firstName: 'émi' }));
    expect(page.persons.map((p) => p.id)).toEqual([ids.emile]);
    const unlinked = await client.fetchQuery(queries.searchEmployees({ companyId: 'acme-corp' }));
    expect(unlinked.employees.every((e) => e.personId === null)).toBe(true);
    // The cache holds each under its key, typed.
    expect(client.getQueryData(queries.hello('acme-corp').queryKey)?.message).toBe('Hello, acme-corp!');
  });

  it('key each query by its operation and inputs, never the token', () => {
    const a = lookup(tokens.both);
    const b = lookup(tokens.acme);
    expect(a.hello('acme-corp').queryKey).toEqual(['get', '/v1/companies/{companyId}/hello', { params: { path: { companyId: 'acme-corp' } } }]);
    expect(a.getPerson(ids.emile).queryKey).toEqual(['get', '/v1/persons/{personId}', { params: { path: { personId: ids.emile } } }]);
    expect(a.getPerson(ids.emile, { externalIdSystems: ['hris'] }).queryKey).toEqual([
      'get',
      '/v1/persons/{personId}',
      { params: { path: { personId: ids.emile }, query: { externalIdSystems: ['hris'] } } },
    ]);
    expect(a.searchPersons({ lastName: 'dur' }).queryKey).toEqual(['post', '/v1/persons/search', { body: { lastName: 'dur' } }]);
    expect(a.searchEmployees({ lastName: 'dur' }).queryKey).toEqual(['post', '/v1/employees/search', { body: { lastName: 'dur' } }]);
    // The same inputs give the same key whoever asks: the key is data, the token is not in it.
    expect(b.searchPersons({ lastName: 'dur' }).queryKey).toEqual(a.searchPersons({ lastName: 'dur' }).queryKey);
    for (const key of [a.hello('x').queryKey, a.getPerson('p').queryKey, a.searchPersons({}).queryKey]) {
      expect(JSON.stringify(key)).not.toMatch(/plk_/);
    }
  });

  it('fail with a LookupApiError: code, status and the request id the service logged', async () => {
    const client = queryClient();
    const error = await client.fetchQuery(lookup(tokens.acme).hello('globex')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupApiError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden' });
    expect((error as LookupApiError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await client.fetchQuery(lookup().getPerson('00000000-0000-4000-8000-000000000000')).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    const invalid = await client.fetchQuery(lookup().searchPersons({ limit: 1000 })).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_request', details: [expect.objectContaining({ path: '/body/limit' })] });
    expect(client.getQueryState(lookup().searchPersons({ limit: 1000 }).queryKey)?.error).toBe(invalid);
  });

  it('page an infinite search by cursor until pagination.next is null', async () => {
    const options = lookup().searchPersonsInfinite({ limit: 1 });
    expect(options.queryKey).toEqual(['post', '/v1/persons/search', { body: { limit: 1 } }, 'infinite']);
    const data = await queryClient().fetchInfiniteQuery({ ...options, pages: 5 });
    expect(data.pages.flatMap((page) => page.persons.map((p) => p.id))).toEqual([ids.ana, ids.emile]);
    expect(data.pageParams).toEqual([undefined, expect.any(String)]);
    expect(data.pages.at(-1)!.pagination.next).toBeNull();
    const employees = await queryClient().fetchInfiniteQuery({ ...lookup().searchEmployeesInfinite({ limit: 1 }), pages: 10 });
    const unlinked = employees.pages.flatMap((page) => page.employees);
    expect(unlinked.length).toBe(employees.pages[0]!.pagination.total);
    expect(new Set(unlinked.map((e) => e.id)).size).toBe(unlinked.length);
  });

  it('give hello alone to a client of the released operations', () => {
    const released = createLookupQueries(createLookupClient({ baseUrl: server.url, token: tokens.both }));
    expect(released.hello('acme-corp').queryKey[1]).toBe('/v1/companies/{companyId}/hello');
  });
});

describe('one layer retries: the client’s', () => {
  const unavailable = json(503, { error: 'service_unavailable' }, { 'Retry-After': '0' });
  const queries = () => createLookupQueries(createLookupDraftsClient({ baseUrl: local.url, token: 't', retry: { baseDelayMs: 10 } }));

  it('one 503 that persists costs the client’s 3 attempts, not 3 x 4, even where the app turned TanStack’s retry on', async () => {
    local.script(unavailable);
    const client = new QueryClient({ defaultOptions: { queries: { retry: 3, retryDelay: 10 } } });
    const started = Date.now();
    const error = await client.fetchQuery(queries().hello('acme-corp')).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: 0 });
    expect(local.requests).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a 503 that clears is retried by the client and the query succeeds', async () => {
    local.script(unavailable, json(200, { message: 'Hello, acme-corp!' }));
    expect(await queryClient().fetchQuery(queries().hello('acme-corp'))).toEqual({ message: 'Hello, acme-corp!' });
    expect(local.requests).toHaveLength(2);
  });

  it('an infinite query stops where a cursor comes back for itself (a static mock’s example)', async () => {
    const page = json(200, { asOf: '2026-01-01T00:00:00Z', persons: [], pagination: { limit: 1, offset: 0, total: 3, next: 'same' } });
    local.script(page);
    const data = await queryClient().fetchInfiniteQuery({ ...queries().searchPersonsInfinite({}), pages: 5 });
    expect(data.pages).toHaveLength(2);
    expect(local.requests.map((r) => JSON.parse(r.body))).toEqual([{}, { cursor: 'same' }]);
  });

  it('a 4xx is not retried by anyone', async () => {
    local.script(json(403, { error: 'forbidden' }));
    await expect(queryClient().fetchQuery(queries().hello('acme-corp'))).rejects.toMatchObject({ code: 'forbidden' });
    expect(local.requests).toHaveLength(1);
  });
});
