// Values the contract's schemas accept but PostgreSQL cannot take as a query parameter.
// Without this check they reach the database and come back as a 500:
//   - a string holding U+0000 (PostgreSQL text cannot contain it),
//   - a number beyond ±(2^53 - 1) (I-JSON, RFC 7493: it has already lost precision, and
//     past 2^63 or as 1e400 = Infinity it is no bigint at all),
//   - a date-time in year 0000 (RFC 3339 allows it; PostgreSQL has no year zero).
// Checked after schema validation, so the value already has the schema's shape.
import type { ErrorDetail } from '../errors.js';

type Schema = { type?: unknown; format?: string; properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[]; anyOf?: Schema[]; oneOf?: Schema[] };

export function unrepresentable(value: unknown, schema: Schema | undefined, path: string): ErrorDetail[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return [{ path, message: 'must not contain the character U+0000' }];
    if (hasFormat(schema, 'date-time') && value.startsWith('0000')) return [{ path, message: 'must be in year 0001 or later' }];
    return [];
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? [] : [{ path, message: `must be between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` }];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => unrepresentable(item, schema?.items, `${path}/${i}`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => unrepresentable(item, schema?.properties?.[key], `${path}/${key}`));
  }
  return [];
}

function hasFormat(schema: Schema | undefined, format: string): boolean {
  if (!schema) return false;
  if (schema.format === format) return true;
  return [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((s) => hasFormat(s, format));
}
