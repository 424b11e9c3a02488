// fast-check arbitraries derived from the contract's JSON Schemas, and the ways a hostile
// or careless client bends a valid request: fields dropped, added, of the wrong type,
// huge, odd Unicode, nested deep.
import fc from 'fast-check';
import { readContractDocument } from '../../server/contract.js';

type Schema = Record<string, any>;
const document = readContractDocument();

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const target = (schema.$ref as string)
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: any, key) => node[key], document);
  return resolve({ ...target, ...schema, $ref: undefined });
}

export function contractSchema(name: string): Schema {
  return resolve(document.components.schemas[name]);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isLeapYear = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysIn = (y: number, m: number) => (m === 2 ? (isLeapYear(y) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!);

const year = fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 1969, 1970, 2000, 2024, 9999));
const offsetMinutes = fc.oneof(
  fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
  fc.constantFrom(0, 16 * 60, -(16 * 60), 23 * 60 + 59, -(23 * 60 + 59), 15 * 60 + 59),
);
/** Fractions of every length: none, milli, micro, and far past what anything stores. */
const fraction = fc.oneof(
  fc.constant(''),
  fc.stringMatching(/^[0-9]{1,9}$/),
  fc.stringMatching(/^[0-9]{10,60}$/),
  fc.constantFrom('9999999', '0000001', '5', '999999999999'),
);
const numericOffset = (minutes: number) => `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;

/**
 * RFC 3339 date-times the contract accepts, at its edges: years 0000 to 9999, every offset
 * to ±23:59, leap seconds (23:59:60 UTC, whatever the offset), fractions of any length,
 * `t`/`z` in lower case.
 */
export const rfc3339 = fc
  .record({
    year,
    month: fc.integer({ min: 1, max: 12 }),
    dayPick: fc.nat(30),
    time: fc.nat(24 * 3600 - 1),
    offset: offsetMinutes,
    leap: fc.boolean(),
    fraction,
    lowerT: fc.boolean(),
    lowerZ: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map(({ year: y, month, dayPick, time, offset, leap, fraction: f, lowerT, lowerZ }) => {
    const day = 1 + (dayPick % daysIn(y, month));
    // A leap second is 23:59:60 UTC: in local time, 23:59 moved by the offset.
    const minuteOfDay = leap ? (((23 * 60 + 59 + offset) % 1440) + 1440) % 1440 : Math.floor(time / 60);
    const second = leap ? 60 : time % 60;
    const zoneText = offset === 0 && lowerZ !== undefined ? (lowerZ ? 'z' : 'Z') : numericOffset(offset);
    return `${pad(y, 4)}-${pad(month)}-${pad(day)}${lowerT ? 't' : 'T'}${pad(Math.floor(minuteOfDay / 60))}:${pad(minuteOfDay % 60)}:${pad(second)}${f ? `.${f}` : ''}${zoneText}`;
  });

/** Strings close to RFC 3339 that are not (or not what the contract takes): each must be a 400. */
const bent = (change: (text: string) => string) =>
  rfc3339
    .map((text) => [text, change(text)] as const)
    .filter(([text, changed]) => changed !== text)
    .map(([, changed]) => changed);
export const nearlyRfc3339 = fc.oneof(
  bent((t) => t.replace(/[Tt]/, ' ')),
  bent((t) => t.replace(/([+-]\d\d):(\d\d)$/, '$1$2')),
  bent((t) => t.replace(/([+-]\d\d):\d\d$|[Zz]$/, '')),
  bent((t) => t.replace(/([+-]\d\d):\d\d$/, '$1')),
  bent((t) => `${t} `),
  bent((t) => t.replace('.', ',')),
  bent((t) => `+${t}`),
  bent((t) => t.replace(/^(\d{4})-(\d\d)-(\d\d)/, '$1$2$3')),
  fc.constantFrom(
    '2024-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-00-10T00:00:00Z',
    '2024-01-32T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T23:60:00Z',
    '2024-01-01T23:59:61Z',
    '2024-01-01T12:00:60Z',
    '2016-12-31T23:59:60+01:00',
    '2024-01-01T00:00:00+24:00',
    '2024-01-01T00:00:00-24:00',
    '2024-01-01T00:00:00+23:60',
    '2024-01-01T00:00:00.Z',
    '12024-01-01T00:00:00Z',
    '2024-01-01T00:00:00\u0000Z',
    '２０２４-01-01T00:00:00Z',
    '2024-01-01T00:00:00UTC',
    '2024-01-01',
    'now',
    '',
  ),
);

/** Every date-time a client may send: the contract's edges, and what it refuses. */
export const dateTimeLike = fc.oneof(
  rfc3339.map((text) => ({ text, valid: true })),
  nearlyRfc3339.map((text) => ({ text, valid: false })),
);

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`));
const uuidText = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((groups) => groups.join('-'));

/** UUIDs the contract accepts: any version or variant, nil and max, either case. */
export const uuidForms = fc.oneof(
  uuidText,
  uuidText.map((u) => u.toUpperCase()),
  fc
    .tuple(uuidText, fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }))
    .map(([u, upper]) => [...u].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'),
  fc.uuid(),
);

/** Other ways of writing a UUID (each a 400): URN, braces, no hyphens, hyphens moved, odd lengths. */
export const nearlyUuid = fc.oneof(
  uuidText.map((u) => `urn:uuid:${u}`),
  uuidText.map((u) => `URN:UUID:${u.toUpperCase()}`),
  uuidText.map((u) => `{${u}}`),
  uuidText.map((u) => u.replace(/-/g, '')),
  uuidText.map((u) =>
    u
      .replace(/-/g, '')
      .replace(/(.{4})/g, '$1-')
      .slice(0, -1),
  ),
  uuidText.map((u) => `${u}0`),
  uuidText.map((u) => u.slice(1)),
  uuidText.map((u) => ` ${u}`),
  uuidText.map((u) => u.replace(/^./, 'g')),
);

export const uuidLike = fc.oneof(
  uuidForms.map((text) => ({ text, valid: true })),
  nearlyUuid.map((text) => ({ text, valid: false })),
);

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
      if (schema.format === 'uuid') return uuidForms;
      if (schema.format === 'date-time') return rfc3339;
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return fc
        .string({
          minLength: schema.minLength ?? 0,
          maxLength: Math.min(schema.maxLength ?? 40, 40),
          unit: fc.constantFrom('grapheme', 'binary', 'grapheme-ascii') as any,
        })
        .filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity));
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Strings a careless or hostile client sends. */
export const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '%',
    '%%',
    '_',
    '\\',
    "'; DROP TABLE persons; --",
    '../../etc/passwd',
    '😀👩‍👩‍👧',
    'Ｄｕｒａｎｄ',
    'e\u0301mile',
    '\u202edurand',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:60Z',
    'null',
    '{}',
  ),
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
    fc.record({
      kind: fc.constant('add' as const),
      key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'lastname', 'email', 'companyIds')),
      value: oddValue,
    }),
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
