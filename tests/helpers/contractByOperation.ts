// Checks a response against the contract with the server's own validator (openapi-backend):
// the body by operation and status, and the headers the contract declares for it.
import { SetMatchType } from 'openapi-backend';
import { expect } from 'vitest';
import type { Contract } from '../../server/contract.js';

export function expectConforms(api: Contract, operationId: string, response: Response, body: unknown): void {
  const where = `${operationId} ${response.status}`;
  expect(api.validator.validateResponse(body, operationId, response.status).errors, `${where} body`).toBeNull();
  const headers = Object.fromEntries(response.headers);
  // The headers present match their schemas, and those the contract marks required are there.
  // (SetMatchType.Superset would demand every declared header, `required` or not.)
  const result = api.validator.validateResponseHeaders(headers, operationId, { statusCode: response.status, setMatchType: SetMatchType.Any });
  expect(result.errors, `${where} headers`).toBeNull();
  const operation = api.router.getOperation(operationId)!;
  const declared = (operation.responses as any)?.[String(response.status)]?.headers ?? {};
  for (const [name, header] of Object.entries<any>(declared)) {
    if (header.required) expect(response.headers.get(name), `${where} headers: required ${name} missing`).not.toBeNull();
  }
}

export interface ExampleScenario {
  operationId: string;
  status: number;
  example: string;
  value: unknown;
}

/** Every named response example of every operation: what `Prefer: code=..., example=...` can ask for. */
export function responseExamples(api: Contract): ExampleScenario[] {
  return api.router.getOperations().flatMap((op) =>
    Object.entries(op.responses ?? {}).flatMap(([status, response]: [string, any]) =>
      Object.entries(response.content?.['application/json']?.examples ?? {}).map(([example, ex]: [string, any]) => ({
        operationId: op.operationId!,
        status: Number(status),
        example,
        value: ex.value,
      })),
    ),
  );
}
