// Values the contract's schemas accept, in the form the database takes. Checked after
// schema validation, so a value already has its schema's shape; then:
//   - a `uuid` or `date-time` string becomes the exact value it names (domain/formats.ts:
//     an RFC 3339 offset beyond PostgreSQL's ±15:59, a leap second, a fraction finer than a
//     microsecond or year 0000 would otherwise fail in the database as a 500);
//   - a string holding U+0000 or a lone surrogate is refused (domain/text.ts);
//   - a number beyond ±(2^53 - 1) is refused (I-JSON, RFC 7493: it has already lost
//     precision, and past 2^63 or as 1e400 = Infinity it is no bigint at all).
import { canonicalUuid, databaseInstant } from '../domain/formats.js';
import { unstorableText } from '../domain/text.js';
import { type ErrorDetail, fieldProblem } from '../errors.js';
import { FORMAT_WORDS } from './validationWords.js';

type Schema = { type?: unknown; format?: string; properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[]; anyOf?: Schema[]; oneOf?: Schema[] };

const byFormat: Record<string, { normalize: (text: string) => string | undefined; problem: string }> = {
  uuid: { normalize: canonicalUuid, problem: FORMAT_WORDS.uuid! },
  'date-time': { normalize: databaseInstant, problem: FORMAT_WORDS['date-time']! },
};

/** `value` with its formatted strings normalized; what cannot be stored is added to `problems`. */
export function toStorable(value: unknown, schema: Schema | undefined, path: string, problems: ErrorDetail[]): unknown {
  if (typeof value === 'string') {
    const unstorable = unstorableText(value);
    if (unstorable) problems.push(fieldProblem(path, unstorable));
    const format = formatOf(schema);
    if (!format) return value;
    const normalized = format.normalize(value);
    if (normalized === undefined) problems.push(fieldProblem(path, format.problem));
    return normalized ?? value;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER)
      problems.push(fieldProblem(path, `must be between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`));
    return value;
  }
  if (Array.isArray(value)) return value.map((item, i) => toStorable(item, schema?.items, `${path}/${i}`, problems));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a JSON key "__proto__" stays an own property, never a prototype.
      Object.defineProperty(out, key, {
        value: toStorable(item, schema?.properties?.[key], `${path}/${key}`, problems),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

function formatOf(schema: Schema | undefined): (typeof byFormat)[string] | undefined {
  if (!schema) return undefined;
  if (schema.format && byFormat[schema.format]) return byFormat[schema.format];
  return formatAmong(schema.allOf) ?? formatAmong(schema.anyOf) ?? formatAmong(schema.oneOf);
}

function formatAmong(schemas: Schema[] | undefined): (typeof byFormat)[string] | undefined {
  for (const schema of schemas ?? []) {
    const found = formatOf(schema);
    if (found) return found;
  }
  return undefined;
}
