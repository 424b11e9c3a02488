// The mock's dynamic mode (`npm run mock -- --dynamic`): bodies generated from the schemas
// with a fixed seed. Generated bodies must still match the contract, and the same seed must
// give the same bodies on every start (two instances side by side, started once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookupDraftsClient } from '../../client/src/drafts.js';
import { createLookupClient } from '../../client/src/index.js';
import type { components } from '../../generated/types.full.js';
import { type MockServer, startPrism } from '../../mock/prism.js';
import { loadContract } from '../../server/contract.js';
import { expectConforms } from '../helpers/contractByOperation.js';

const api = loadContract();
let mocks: MockServer[] = [];
beforeAll(async () => {
  mocks = await Promise.all([startPrism({ port: 0, dynamic: true }), startPrism({ port: 0, dynamic: true })]);
});
afterAll(() => Promise.all(mocks.map((m) => m.stop())));

type Outcome = { data?: unknown; error?: unknown; response: Response };
const callsOn = (mock: MockServer): Record<string, (headers?: Record<string, string>) => Promise<Outcome>> => {
  const lookup = createLookupClient({ baseUrl: mock.url, token: 'any-token', retry: false });
  const drafts = createLookupDraftsClient({ baseUrl: mock.url, token: 'any-token', retry: false });
  return {
    hello: (headers) => lookup.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId: 'acme-corp' } }, headers }),
    searchPersons: (headers) => drafts.POST('/v1/persons/search', { body: { lastName: 'dur' }, headers }),
    getPerson: (headers) => drafts.GET('/v1/persons/{personId}', { params: { path: { personId: '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11' } }, headers }),
    searchEmployees: (headers) => drafts.POST('/v1/employees/search', { body: { lastName: 'dur' }, headers }),
    listChanges: (headers) => drafts.GET('/v1/companies/{companyId}/changes', { params: { path: { companyId: 'acme-corp' } }, headers }),
  };
};

describe('mock in dynamic mode', () => {
  it('generates bodies and headers that match the contract, for every status of every operation', async () => {
    const calls = callsOn(mocks[0]!);
    expect(Object.keys(calls).sort()).toEqual(
      api.router
        .getOperations()
        .map((op) => op.operationId)
        .sort(),
    );
    for (const op of api.router.getOperations()) {
      for (const status of Object.keys(op.responses ?? {}).map(Number)) {
        const { data, error, response } = await calls[op.operationId!]!({ Prefer: `code=${status}` });
        expect(response.status, `${op.operationId} ${status}`).toBe(status);
        expectConforms(api, op.operationId!, response, status < 400 ? data : error);
      }
    }
  });

  it('answers searches with a page of people (each employed) or records that its pagination counts', async () => {
    const calls = callsOn(mocks[0]!);
    const persons = (await calls.searchPersons!()).data as components['schemas']['SearchPersonsResponse'];
    const employees = (await calls.searchEmployees!()).data as components['schemas']['SearchEmployeesResponse'];
    for (const [items, { limit, offset, total, next }] of [
      [persons.persons, persons.pagination],
      [employees.employees, employees.pagination],
    ] as const) {
      expect(items.length).toBeGreaterThanOrEqual(1);
      expect(items.length).toBeLessThanOrEqual(limit);
      expect(offset % limit).toBe(0);
      // The last page has no next cursor and ends the total; another is followed by more.
      expect(next === null ? total === offset + items.length : items.length === limit && total > offset + items.length).toBe(true);
    }
    expect([persons.withheld, employees.withheld]).toEqual([undefined, undefined]);
    for (const person of persons.persons) {
      expect(person.employments.length).toBeGreaterThanOrEqual(1);
      expect(person.employments.every((e) => e.personId === person.id)).toBe(true);
    }
    expect(employees.employees.every((e) => e.personId === null)).toBe(true);
  });

  it('gives the same bodies for the same seed', async () => {
    const [a, b] = mocks.map(callsOn);
    for (const operationId of ['hello', 'searchPersons', 'getPerson', 'searchEmployees', 'listChanges']) {
      const [first, second] = await Promise.all([a![operationId]!(), b![operationId]!()]);
      expect(first.data, operationId).toBeDefined();
      expect(second.data, operationId).toEqual(first.data);
    }
  });

  it('still answers a request without a token with the contract 401', async () => {
    const response = await fetch(`${mocks[0]!.url}/v1/persons/3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    const body = await response.json();
    expect(body).toEqual({ error: 'invalid_api_key' });
    expectConforms(api, 'getPerson', response, body);
  });
});
