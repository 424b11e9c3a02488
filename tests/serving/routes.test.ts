// openapi-backend builds every route from the 3.1 contract (it builds none when it
// rejects the document), and the server's router finds each operation once.
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../server/contract.js';
import { buildRouter } from '../../server/http/router.js';
import { loadServedContract } from '../../server/servedContract.js';

describe('routes', () => {
  const api = loadContract();

  it('openapi-backend finds every operation in the contract', () => {
    expect(
      api.router
        .getOperations()
        .map((o) => `${o.method.toUpperCase()} ${o.path} ${o.operationId}`)
        .sort(),
    ).toEqual([
      'GET /v1/companies/{companyId}/changes listChanges',
      'GET /v1/companies/{companyId}/hello hello',
      'GET /v1/persons/{personId} getPerson',
      'POST /v1/employees/search searchEmployees',
      'POST /v1/persons/search searchPersons',
    ]);
  });

  it('the server router resolves each operation and its path parameters', async () => {
    const router = buildRouter(await loadServedContract(), {});
    const hello = router.find('GET', '/v1/companies/acme-corp/hello');
    expect(hello?.route.kind === 'operation' && hello.route.operation.operationId).toBe('hello');
    expect(hello?.params).toEqual({ companyId: 'acme-corp' });
    const person = router.find('GET', '/v1/persons/3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11');
    expect(person?.route.kind === 'operation' && person.route.draft).toBe(true);
    expect(router.find('POST', '/v1/persons/search')?.route.kind).toBe('operation');
    expect(router.find('GET', '/v1/persons/search/extra')).toBeUndefined();
    expect(router.find('PUT', '/v1/companies/acme-corp/hello')).toBeUndefined();
  });
});
