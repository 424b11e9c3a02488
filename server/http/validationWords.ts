// What `invalid_request`'s details say, in plain words: each names the field and what it
// must be (`personId must be a UUID ...`, `limit must be at most 100`, `lastname is not a
// field of this request`), one entry per problem, the same from openapi-backend's
// validators and from the build's precompiled ones (both give ajv's error objects, whose
// keyword and params are all this reads besides the operation's own schemas). A schema's
// regular expression never leaves the service: a pattern is said by the format it
// spells out, or by its words below (docs/decisions/0025-local-development-backend.md).
import type { ErrorObject } from 'ajv';
import { type ErrorDetail, fieldProblem } from '../errors.js';
import type { Operation } from '../servedContract.js';

type Schema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  allOf?: Schema[];
};

/** Each format the contract uses, as a reader would say it. */
export const FORMAT_WORDS: Record<string, string> = {
  uuid: 'must be a UUID: 32 hexadecimal digits grouped 8-4-4-4-12 with hyphens, such as 3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11',
  'date-time': 'must be an RFC 3339 date-time with a time zone, such as 2026-01-01T00:00:00Z or 2026-01-01T09:30:00+02:00',
};

/** Each pattern the contract uses without a format, in words (a test holds every pattern of the contract said here or by its format). */
export const PATTERN_WORDS: Record<string, string> = {
  '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$': 'must be 1 to 64 letters, digits, _ or -, starting with a letter or digit, such as acme-corp',
  // PageCursor
  '^[A-Za-z0-9_-]+$': "must be a previous answer's pagination.next, sent back as it came (letters, digits, _ and - only)",
  // ChangeCursor
  '^[A-Za-z0-9_-]{1,24}$': "must be a change's position or a page's next from this feed, sent back as it came (up to 24 letters, digits, _ and -)",
};

/**
 * Which of a value's failed keywords says its problem best: a value fails several at once
 * (an empty cursor is too short and not of its form; a pattern that spells out a format
 * fails with it), and it is one problem, said once.
 */
const SAYS_IT_BEST = ['type', 'enum', 'const', 'empty', 'format', 'pattern', 'minLength', 'maxLength'];
const rank = (error: ErrorObject) => {
  const at = SAYS_IT_BEST.indexOf(error.keyword === 'minLength' && (error.params as { limit: number }).limit === 1 ? 'empty' : error.keyword);
  return at === -1 ? SAYS_IT_BEST.length : at;
};

/** ajv's errors for one request as details: one per problem, each in words. */
export function describeSchemaErrors(errors: readonly ErrorObject[], operation: Operation): ErrorDetail[] {
  // One entry per value (in the order ajv found them), but one per field a body or query must not have.
  const best = new Map<string, ErrorObject>();
  errors.forEach((error, i) => {
    const key = error.keyword === 'additionalProperties' || error.keyword === 'required' ? `${i}` : error.instancePath;
    const kept = best.get(key);
    if (!kept) best.set(key, error);
    else if (rank(error) < rank(kept)) best.set(key, error);
  });
  return [...best.values()].map((error) => describe(error, operation));
}

function describe(error: ErrorObject, operation: Operation): ErrorDetail {
  const path = error.instancePath.replace(/^\/requestBody/, '/body') || '/';
  const params = error.params as Record<string, any>;
  const schema = schemaAt(operation, path);
  switch (error.keyword) {
    case 'additionalProperties':
      return { path, message: unknownField(operation, path, String(params.additionalProperty)) };
    case 'required':
      if (path === '/') return { path: '/body', message: 'the request body is required: a JSON object ({} for no filters)' };
      return fieldProblem(`${path}/${params.missingProperty}`, 'is required');
    case 'type':
      return fieldProblem(path, `must be ${typeWords(params.type, schema)}`);
    case 'format':
      return fieldProblem(path, FORMAT_WORDS[params.format] ?? `must be a valid ${params.format}`);
    case 'pattern':
      return fieldProblem(path, patternWords(schema, String(params.pattern)));
    case 'minLength':
      return fieldProblem(path, params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters long`);
    case 'maxLength':
      return fieldProblem(path, `must be at most ${params.limit} characters long`);
    case 'minimum':
      return fieldProblem(path, `must be at least ${params.limit}`);
    case 'maximum':
      return fieldProblem(path, `must be at most ${params.limit}`);
    case 'exclusiveMinimum':
      return fieldProblem(path, `must be more than ${params.limit}`);
    case 'exclusiveMaximum':
      return fieldProblem(path, `must be less than ${params.limit}`);
    case 'minItems':
      return fieldProblem(path, `must hold at least ${params.limit} ${params.limit === 1 ? 'item' : 'items'}`);
    case 'maxItems':
      return fieldProblem(path, `must hold at most ${params.limit} items`);
    case 'enum':
      return fieldProblem(path, `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
    case 'const':
      return fieldProblem(path, `must be ${JSON.stringify(params.allowedValue)}`);
    case 'uniqueItems':
      return fieldProblem(path, 'must not hold the same item twice');
    default:
      // A keyword the contract does not use yet: ajv's own words, which quote no pattern.
      return fieldProblem(path, error.message ?? 'is not valid');
  }
}

/** A field the request does not have; a body field sent in the query, or a misspelt one, is named. */
function unknownField(operation: Operation, path: string, name: string): string {
  const where = path === '/query' ? 'a query parameter' : 'a field';
  const known =
    path === '/query'
      ? (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
      : Object.keys(schemaAt(operation, path)?.properties ?? {});
  const alike = known.find((field) => field.toLowerCase() === name.toLowerCase());
  if (alike) return `${name} is not ${where} of this request: did you mean ${alike}?`;
  const bodyFields = Object.keys(schemaAt(operation, '/body')?.properties ?? {});
  if (path === '/query' && bodyFields.includes(name)) return `${name} is not ${where} of this request: send it in the JSON body`;
  return `${name} is not ${where} of this request`;
}

function typeWords(type: string | string[], schema: Schema | undefined): string {
  const one = (t: string): string => {
    if (t === 'array') return schema?.items?.type === 'string' ? 'an array of strings' : 'an array';
    if (t === 'object') return 'a JSON object';
    if (t === 'integer') return 'a whole number';
    if (t === 'boolean') return 'true or false';
    return `a ${t}`;
  };
  return Array.isArray(type) ? type.map(one).join(' or ') : one(type);
}

function patternWords(schema: Schema | undefined, pattern: string): string {
  if (schema?.format && FORMAT_WORDS[schema.format]) return FORMAT_WORDS[schema.format]!;
  return PATTERN_WORDS[pattern] ?? 'is not written the way this field is';
}

/** The schema of the request part at `path` (`/body/limit`, `/query/externalIdSystems/0`), from the operation's own, dereferenced. */
function schemaAt(operation: Operation, path: string): Schema | undefined {
  const [, part, name, ...rest] = path.split('/');
  let schema: Schema | undefined;
  if (part === 'body') {
    schema = operation.requestBody?.content?.['application/json']?.schema as Schema | undefined;
    if (name !== undefined) rest.unshift(name);
  } else {
    schema = (operation.parameters ?? []).find((p) => p.in === part && p.name === name)?.schema;
    if (name === undefined) return undefined;
  }
  for (const segment of rest) {
    schema = merged(schema);
    schema = /^\d+$/.test(segment) && schema?.items ? schema.items : schema?.properties?.[segment];
  }
  return merged(schema);
}

/** A schema with its allOf parts folded in (a `$ref` with a description beside it bundles that way). */
function merged(schema: Schema | undefined): Schema | undefined {
  if (!schema?.allOf) return schema;
  return Object.assign({}, ...schema.allOf.map(merged), { ...schema, allOf: undefined });
}
