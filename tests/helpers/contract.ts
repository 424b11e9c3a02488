// Validates every response a test receives against openapi.yaml: the status must be one
// the operation declares, the body must match that status's schema, and the declared
// required headers must be present. Routes outside the contract must answer with the
// shared Error schema.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { type Contract, contractPaths, loadContract, readContractDocument } from '../../server/contract.js';

const api = loadContract();
let publicApi: Contract | undefined;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const errorSchema = readContractDocument().components.schemas.Error;
const validateErrorBody = addFormats(new Ajv({ strict: false })).compile({
  ...errorSchema,
  properties: { error: readContractDocument().components.schemas.ErrorCode },
});

const operational = new Set(['/healthz', '/readyz', '/metrics', '/openapi.yaml', '/openapi.json']);

/** The same check against the public bundle: what a consumer generating a client from it is promised. */
export function expectPublicContractResponse(method: string, url: string, status: number, headers: Headers, body: unknown): void {
  publicApi ??= loadContract(contractPaths.public);
  expectContractResponse(method, url, status, headers, body, publicApi);
}

export function expectContractResponse(method: string, url: string, status: number, headers: Headers, body: unknown, contract: Contract = api): void {
  // Not `new URL`: a path such as `//x` would be read as a host.
  const path = url.split('?')[0]!.split('#')[0]!;
  if (operational.has(path) || path === '/docs' || path.startsWith('/docs/')) return;
  // OPTIONS is HTTP's own (RFC 9110 §9.3.7, CORS preflights): 204 with Allow, no body.
  if (method === 'OPTIONS' && status === 204) {
    expect(headers.get('allow'), `OPTIONS ${path}: Allow missing`).toMatch(/OPTIONS/);
    expect(body, `OPTIONS ${path}: a 204 has no body`).toBe('');
    return;
  }
  // HEAD answers as GET would, without the body.
  if (method === 'HEAD') {
    expect(body, `HEAD ${path}: no body`).toBe('');
    const get = contract.router.matchOperation({ method: 'GET', path, headers: {} } as any);
    if (get && !(path.length > 1 && path.endsWith('/')))
      expect(Object.keys(get.responses ?? {}), `HEAD ${path} → ${status}: status not declared for GET`).toContain(String(status));
    return;
  }
  // openapi-backend's matcher forgives a trailing slash; the server (and the contract) do not.
  const operation = path.length > 1 && path.endsWith('/') ? undefined : contract.router.matchOperation({ method, path, headers: {} } as any);
  const where = `${method} ${path} → ${status} ${JSON.stringify(body)?.slice(0, 300)}`;
  if (!operation) {
    expect(validateErrorBody(body), `${where}: not the contract's Error body`).toBe(true);
    // A method the path does not serve: 405 says which it does (RFC 9110 §15.5.6).
    if (status === 405) expect(headers.get('allow'), `${where}: Allow missing`).toMatch(/OPTIONS/);
    return;
  }
  expect(Object.keys(operation.responses ?? {}), `${where}: status not declared by ${operation.operationId}`).toContain(String(status));
  const result = contract.validator.validateResponse(body, operation, status);
  expect(result.errors, `${where}: body breaks the contract`).toBeNull();
  const declared = (operation.responses as any)[String(status)]?.headers ?? {};
  for (const [name, header] of Object.entries<any>(declared)) {
    if (header.required) expect(headers.get(name), `${where}: required header ${name} missing`).not.toBeNull();
  }
  // 'any': the headers present must match their schemas. (openapi-backend's 'superset' would
  // demand every declared header, ignoring `required`: RateLimit-* are declared on a 404 that
  // carries them only when the token was accepted.)
  const headerResult = contract.validator.validateResponseHeaders(Object.fromEntries(headers), operation, { statusCode: status, setMatchType: 'any' as any });
  expect(headerResult.errors, `${where}: headers break the contract`).toBeNull();
}
