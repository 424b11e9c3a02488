// fast-check arbitraries derived from the contract's JSON Schemas, and the ways a hostile
// or careless client bends a valid request: fields dropped, added, of the wrong type,
// huge, odd Unicode, nested deep.
import fc from 'fast-check';
import { readContractDocument } from '../../../server/contract.js';

type Schema = Record<string, any>;
const document = readContractDocument();

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const target = (schema.$ref as string).replace(/^#\//, '').split('/').reduce((node: any, key) => node[key], document);
  return resolve({ ...target, ...schema, $ref: undefined });
}

export function contractSchema(name: string): Schema {
  return resolve(document.components.schemas[name]);
}

/** RFC 3339 date-times in the range the contract and PostgreSQL share, with Z or an offset. */
export const dateTime = fc
  .tuple(fc.date({ min: new Date('0001-01-02T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }), fc.constantFrom('Z', '+00:00', '+05:30', '-08:00'))
  .map(([date, zone]) => date.toISOString().replace('Z', zone));

/** Values valid against `schema` (a subset of JSON Schema: what the contract uses). */
export function valid(schemaOrRef: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(schemaOrRef);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'object': {
      const properties = Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([key, value]) => [key, valid(value)]));
      return fc.record(properties, { requiredKeys: schema.required ?? [] });
    }
    case 'array':
      return fc.array(valid(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 });
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date-time') return dateTime;
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40), unit: fc.constantFrom('grapheme', 'binary', 'grapheme-ascii') as any }).filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity));
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Strings a careless or hostile client sends. */
export const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\ud800', '%', '%%', '_', '\\', "'; DROP TABLE persons; --", '../../etc/passwd', '😀👩‍👩‍👧', 'Ｄｕｒａｎｄ', 'e\u0301mile', '\u202edurand', '0000-01-01T00:00:00Z', '9999-12-31T23:59:60Z', 'null', '{}'),
  fc.integer({ min: 100, max: 20_000 }).map((n) => 'x'.repeat(n)),
);

const oddNumber = fc.oneof(
  fc.constantFrom(0, -1, 1.5, 101, 2 ** 31, 2 ** 53, 2 ** 63, 1e300, -1e300, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

export const oddValue: fc.Arbitrary<unknown> = fc.oneof(oddString, oddNumber, fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }));

/** `value` wrapped in `depth` levels of arrays and objects. */
export const deeplyNested = fc.tuple(fc.integer({ min: 1, max: 60 }), oddValue, fc.boolean()).map(([depth, value, asArray]) => {
  let nested = value;
  for (let i = 0; i < depth; i++) nested = asArray ? [nested] : { lastName: nested };
  return nested;
});

/** A valid object with one or more of its fields bent out of shape. */
export function mutated(schemaOrRef: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(schemaOrRef);
  const keys = Object.keys(schema.properties ?? {});
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), key: fc.constantFrom(...keys) }),
    fc.record({ kind: fc.constant('add' as const), key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'lastname', 'email', 'companyIds')), value: oddValue }),
    fc.record({ kind: fc.constant('retype' as const), key: fc.constantFrom(...keys), value: fc.oneof(oddValue, deeplyNested) }),
  );
  return fc.tuple(valid(schema) as fc.Arbitrary<Record<string, unknown>>, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([base, mutations]) => {
    const body: Record<string, unknown> = { ...base };
    for (const m of mutations) {
      if (m.kind === 'drop') delete body[m.key];
      else Object.defineProperty(body, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    }
    return body;
  });
}
