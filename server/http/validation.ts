// Request validation with the validators openapi-backend compiles from the contract (or
// the build's precompiled copies of them, servedContract.ts), called directly with the
// already-routed operation, then the values the database takes (storable.ts). Failures map
// to the contract's codes: a bad companyId or personId path parameter has its own code;
// anything else is invalid_request with details, in words (validationWords.ts). Operations
// get the input back in its storable form (a UUID in lower case, a date-time as its UTC
// instant).
import type { ErrorObject } from 'ajv';
import { ApiError, type ErrorDetail } from '../errors.js';
import type { Operation, ServedContract } from '../servedContract.js';
import { toStorable } from './storable.js';
import { describeSchemaErrors } from './validationWords.js';

export interface RequestParts {
  path: Record<string, string | undefined>;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const pathParamCodes = { companyId: 'invalid_company_id', personId: 'invalid_person_id' } as const;

export type ValidInput = Pick<RequestParts, 'path' | 'query' | 'body'>;

export function validateRequest(api: ServedContract, operation: Operation, parts: RequestParts): ValidInput {
  const input: Record<string, unknown> = { path: parts.path, query: parts.query, header: parts.headers };
  if (operation.requestBody) input.requestBody = parts.body;
  let errors: ErrorObject[] | undefined;
  for (const validate of api.requestValidators(operation.operationId)) {
    if (!validate(input)) (errors ??= []).push(...(validate.errors ?? []));
  }
  // Schema errors first; only a request the schemas accept is turned into values the
  // database takes.
  const details: ErrorDetail[] = errors ? describeSchemaErrors(errors, operation) : [];
  const valid = details.length ? parts : storable(operation, parts, details);
  if (!details.length) return valid;
  for (const [param, code] of Object.entries(pathParamCodes)) {
    if (details.some((d) => d.path === `/path/${param}` || d.path.startsWith(`/path/${param}/`))) throw new ApiError(code);
  }
  throw new ApiError('invalid_request', details);
}

/**
 * The input in the form the database takes; what it cannot take goes to `problems` (see
 * storable.ts). The path and query objects are the request's own, changed in place, as
 * ajv's type coercion already changes them.
 */
function storable(operation: Operation, parts: RequestParts, problems: ErrorDetail[]): ValidInput {
  const { path, query } = parts;
  for (const parameter of operation.parameters ?? []) {
    const source: Record<string, unknown> | undefined = parameter.in === 'path' ? path : parameter.in === 'query' ? query : undefined;
    if (source?.[parameter.name] !== undefined)
      source[parameter.name] = toStorable(source[parameter.name], parameter.schema, `/${parameter.in}/${parameter.name}`, problems);
  }
  let body = parts.body;
  if (operation.requestBody) {
    const schema = operation.requestBody.content?.['application/json']?.schema;
    body = toStorable(parts.body, schema, '/body', problems);
  }
  return { path, query, body };
}
