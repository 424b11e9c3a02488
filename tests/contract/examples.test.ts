// Every example in the contract is valid against its schema, checked by the very
// validator the server uses (openapi-backend with ajv-formats), so Prism, the docs and
// frontend teams never show a body the server would not send or accept.
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../server/contract.js';

const api = loadContract();
const operations = api.router.getOperations();

type Example = { name: string; value: unknown };
const examplesOf = (media: any): Example[] => Object.entries(media?.examples ?? {}).map(([name, ex]: [string, any]) => ({ name, value: ex.value }));

describe('contract examples', () => {
  const responseCases = operations.flatMap((op) =>
    Object.entries(op.responses ?? {}).flatMap(([status, response]: [string, any]) =>
      examplesOf(response.content?.['application/json']).map((ex) => ({ op, status, ...ex })),
    ),
  );
  const requestCases = operations.flatMap((op) => examplesOf((op.requestBody as any)?.content?.['application/json']).map((ex) => ({ op, ...ex })));

  it('exist for every response of every operation', () => {
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses ?? {}) as [string, any][]) {
        expect(examplesOf(response.content?.['application/json']).length, `${op.operationId} ${status}`).toBeGreaterThan(0);
      }
    }
  });

  it.each(responseCases.map((c) => [`${c.op.operationId} ${c.status} ${c.name}`, c] as const))('response example %s is valid', (_, { op, status, value }) => {
    expect(api.validator.validateResponse(value, op, Number(status)).errors).toBeNull();
  });

  it.each(requestCases.map((c) => [`${c.op.operationId} ${c.name}`, c] as const))('request example %s is valid', (_, { op, value }) => {
    const result = api.validator.validateRequest(
      { method: op.method, path: op.path, headers: { 'content-type': 'application/json' }, query: {}, body: value },
      op,
    );
    expect(result.errors).toBeNull();
  });

  it('rejects an example that breaks its schema (the check can fail)', () => {
    const hello = api.router.getOperation('hello')!;
    expect(api.validator.validateResponse({ error: 'forbidden', extra: 1 }, hello, 403).errors).not.toBeNull();
    expect(api.validator.validateResponse({ message: 'hi' }, hello, 403).errors).not.toBeNull();
  });
});
