// Request validation with the validators openapi-backend compiled from the contract,
// called directly with the already-routed operation. Failures map to the contract's
// codes: a bad companyId or personId path parameter has its own code; anything else is
// invalid_request with details.
import type { ErrorObject } from 'ajv';
import type { Contract, Operation } from '../contract.js';
import { ApiError, type ErrorDetail } from '../errors.js';
import { unrepresentable } from './representable.js';

export interface RequestParts {
  path: Record<string, string | undefined>;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const pathParamCodes = { companyId: 'invalid_company_id', personId: 'invalid_person_id' } as const;

export function validateRequest(api: Contract, operation: Operation, parts: RequestParts): void {
  const validators = api.validator.getRequestValidatorsForOperation(operation.operationId!) ?? [];
  const input: Record<string, unknown> = { path: parts.path, query: parts.query, header: parts.headers };
  if (operation.requestBody) input.requestBody = parts.body;
  const errors: ErrorObject[] = [];
  for (const validate of validators) {
    if (!validate(input)) errors.push(...(validate.errors ?? []));
  }
  // Schema errors first; only a request the schemas accept is checked for values the
  // database cannot take.
  const details = errors.length ? errors.map(toDetail) : storableProblems(operation, parts);
  if (!details.length) return;
  for (const [param, code] of Object.entries(pathParamCodes)) {
    if (details.some((d) => d.path === `/path/${param}` || d.path.startsWith(`/path/${param}/`))) throw new ApiError(code);
  }
  throw new ApiError('invalid_request', details);
}

/** Valid by the contract, yet not something the database can be asked about (see representable.ts). */
function storableProblems(operation: Operation, parts: RequestParts): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const parameter of (operation.parameters ?? []) as { in: string; name: string; schema?: object }[]) {
    const source = parameter.in === 'path' ? parts.path : parameter.in === 'query' ? parts.query : undefined;
    if (source?.[parameter.name] !== undefined) problems.push(...unrepresentable(source[parameter.name], parameter.schema, `/${parameter.in}/${parameter.name}`));
  }
  if (operation.requestBody) {
    const schema = (operation.requestBody as { content?: Record<string, { schema?: object }> }).content?.['application/json']?.schema;
    problems.push(...unrepresentable(parts.body, schema, '/body'));
  }
  return problems;
}

function toDetail(error: ErrorObject): ErrorDetail {
  const path = error.instancePath.replace(/^\/requestBody/, '/body') || '/';
  if (error.keyword === 'additionalProperties') {
    return { path, message: `must NOT have additional property '${(error.params as { additionalProperty: string }).additionalProperty}'` };
  }
  if (error.keyword === 'required' && path === '/') return { path: '/body', message: 'is required' };
  return { path, message: error.message ?? 'is invalid' };
}
