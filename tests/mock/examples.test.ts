// The mock (`npm run mock`: Prism on the full contract) through the typed client: every
// operation, drafts through @lookup/client/drafts, and every response example the contract
// lists, asked for with `Prefer`. Every response is validated against the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookupDraftsClient } from '../../client/src/drafts.js';
import { createLookupClient } from '../../client/src/index.js';
import { type MockServer, startPrism } from '../../mock/prism.js';
import { loadContract } from '../../server/contract.js';
import { expectConforms, responseExamples } from '../helpers/contractByOperation.js';

const api = loadContract();
let mock: MockServer;
beforeAll(async () => {
  mock = await startPrism({ port: 0 });
});
afterAll(() => mock?.stop());

// Retries off: the mock answers every `Prefer: code=429` with a 429, as asked.
const clients = () => ({
  lookup: createLookupClient({ baseUrl: mock.url, token: 'any-token', retry: false }),
  drafts: createLookupDraftsClient({ baseUrl: mock.url, token: 'any-token', retry: false }),
});
const personId = '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11';

type Outcome = { data?: unknown; error?: unknown; response: Response };
// One typed call per operation of the contract; a new operation fails the test below until it is added.
const calls: Record<string, (headers?: Record<string, string>) => Promise<Outcome>> = {
  hello: (headers) => clients().lookup.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId: 'acme-corp' } }, headers }),
  searchPersons: (headers) => clients().drafts.POST('/v1/persons/search', { body: { lastName: 'dur', limit: 2 }, headers }),
  getPerson: (headers) =>
    clients().drafts.GET('/v1/persons/{personId}', { params: { path: { personId }, query: { externalIdSystems: ['payroll', 'hris'] } }, headers }),
  searchEmployees: (headers) => clients().drafts.POST('/v1/employees/search', { body: { lastName: 'dur', limit: 1 }, headers }),
  listChanges: (headers) =>
    clients().drafts.GET('/v1/companies/{companyId}/changes', { params: { path: { companyId: 'acme-corp' }, query: { after: 'ZjJz', limit: 3 } }, headers }),
};

describe('mock: every operation with the typed client', () => {
  it('covers every operation of the full contract, drafts included', () => {
    expect(Object.keys(calls).sort()).toEqual(
      api.router
        .getOperations()
        .map((op) => op.operationId)
        .sort(),
    );
  });

  it.each(Object.keys(calls))('%s answers 200 with its first example by default', async (operationId) => {
    const { data, error, response } = await calls[operationId]!();
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    const first = responseExamples(api).find((s) => s.operationId === operationId && s.status === 200)!;
    expect(data).toEqual(first.value);
    expectConforms(api, operationId, response, data);
  });
});

describe('mock: every response example is reachable with Prefer', () => {
  const scenarios = responseExamples(api);
  it('includes every error status of every operation', () => {
    for (const op of api.router.getOperations()) {
      const statuses = Object.keys(op.responses ?? {})
        .map(Number)
        .sort();
      expect([...new Set(scenarios.filter((s) => s.operationId === op.operationId).map((s) => s.status))].sort(), op.operationId).toEqual(statuses);
    }
  });

  it.each(scenarios.map((s) => [`${s.operationId} ${s.status} ${s.example}`, s] as const))('%s', async (_, scenario) => {
    const { data, error, response } = await calls[scenario.operationId]!({ Prefer: `code=${scenario.status}, example=${scenario.example}` });
    expect(response.status).toBe(scenario.status);
    const body = scenario.status < 400 ? data : error;
    expect(body).toEqual(scenario.value);
    if (scenario.status >= 400) expect((error as { error: string }).error).toBe((scenario.value as { error: string }).error);
    expectConforms(api, scenario.operationId, response, body);
  });
});

describe('the conformance check', () => {
  it('fails on a wrong body or a missing required header (it can fail)', () => {
    const json = { 'content-type': 'application/json' };
    expect(() => expectConforms(api, 'hello', new Response('', { status: 401, headers: json }), { error: 'invalid_api_key' })).toThrow(/headers/);
    expect(() => expectConforms(api, 'hello', new Response('', { status: 403, headers: json }), { error: 'forbidden', detail: 'x' })).toThrow(/body/);
  });
});

describe('mock: errors Prism produces from the request itself, as the service would', () => {
  it('no bearer token: 401 with the contract body and WWW-Authenticate, not a problem+json', async () => {
    for (const authorization of [undefined, 'Basic dXNlcjpwdw==', 'Bearer ']) {
      const response = await fetch(`${mock.url}/v1/companies/acme-corp/hello`, { headers: authorization ? { authorization } : {} });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      const body = await response.json();
      expect(body).toEqual({ error: 'invalid_api_key' });
      expectConforms(api, 'hello', response, body);
    }
  });

  it('a malformed companyId: 400 invalid_company_id', async () => {
    const { error, response } = await clients().lookup.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId: '-acme' } } });
    expect(response.status).toBe(400);
    expect(error?.error).toBe('invalid_company_id');
    expectConforms(api, 'hello', response, error);
  });

  it('a personId that is not a UUID: 400 invalid_person_id', async () => {
    const { error, response } = await clients().drafts.GET('/v1/persons/{personId}', { params: { path: { personId: 'not-a-uuid' } } });
    expect(response.status).toBe(400);
    expect(error?.error).toBe('invalid_person_id');
    expectConforms(api, 'getPerson', response, error);
  });

  it('an out-of-range limit: 400 invalid_request', async () => {
    const { error, response } = await clients().drafts.POST('/v1/persons/search', { body: { limit: 1000 } });
    expect(response.status).toBe(400);
    expect(error?.error).toBe('invalid_request');
    expectConforms(api, 'searchPersons', response, error);
  });

  it('a body that is not JSON: 415 unsupported_media_type', async () => {
    const { error, response } = await clients().drafts.POST('/v1/persons/search', {
      body: {},
      bodySerializer: () => 'lastName=dur',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(error?.error).toBe('unsupported_media_type');
    expectConforms(api, 'searchPersons', response, error);
  });
});
