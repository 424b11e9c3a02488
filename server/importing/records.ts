// The import format: one JSON object per source record, as NDJSON lines or a JSON array.
// FORMAT.md beside this file documents it for operators; the JSON Schemas below are what
// every record is checked against. An employment's records, their fields, schemas and
// types, come from the employment's one declaration, server/domain/employment.ts.

import { credentialNameSchema, credentialPurposeSchema } from '../domain/credentials.js';
import {
  type EmployeeRecord,
  type EmploymentRecordKindName,
  type EmploymentRecordOf,
  employeeFields,
  employmentRecordKindNames,
  employmentRecordKinds,
} from '../domain/employment.js';
import { companyIdSchema, dateTime, type Field, text, uuid } from '../domain/fields.js';
import { isStorableDate, isUuid, storedInstant } from '../domain/formats.js';

export type { EmployeeRecord };

export interface CompanyRecord {
  type: 'company';
  id: string;
  name: string;
}
export interface PersonRecord {
  type: 'person';
  id: string;
  createdAt: string;
  updatedAt: string;
}
/**
 * A credential: `tokenHash` (hex SHA-256) for real ones, or a plaintext `token` for
 * fixtures; the field groups it reads (`["name", "email"]`, or `["all"]`) and why.
 */
export interface CredentialRecord {
  type: 'credential';
  id?: string;
  name: string;
  token?: string;
  tokenHash?: string;
  companies: string[];
  fields: string[];
  purpose: string;
}
/** Removes a stored record; one already absent is counted, not refused. */
export type DeleteRecord =
  | { type: 'delete'; record: 'employee' | 'person' | 'company'; id: string }
  | { type: 'delete'; record: EmploymentRecordKindName; employeeId: string };

/** Each per-employment kind is a record type of the same name (membership, invitation, ...). */
export type EmploymentRecord = { [Kind in EmploymentRecordKindName]: EmploymentRecordOf<Kind> }[EmploymentRecordKindName];
export type ImportRecord = CompanyRecord | PersonRecord | EmployeeRecord | EmploymentRecord | CredentialRecord | DeleteRecord;

/** Record types that are stored (every `type` but `delete`). */
export type StoredRecordType = Exclude<ImportRecord['type'], 'delete'>;
export const storedRecordTypes: StoredRecordType[] = ['company', 'person', 'employee', ...employmentRecordKindNames, 'credential'];

/**
 * The schemas' formats: only what the database stores with the meaning the file gives it,
 * and the contract can write back (server/domain/formats.ts). A UUID is 8-4-4-4-12 hex
 * digits; a date `YYYY-MM-DD`; a date-time RFC 3339 (`T`, an offset up to ±23:59). Dates
 * and instants lie in years 0001-9999.
 */
export const recordFormats = {
  uuid: isUuid,
  date: isStorableDate,
  'date-time': (text: string) => storedInstant(text) !== undefined,
};

const record = (type: string, { properties, required }: ObjectParts) => ({
  type: 'object',
  additionalProperties: false,
  required: ['type', ...required],
  properties: { type: { const: type }, ...properties },
});

interface ObjectParts {
  properties: Record<string, object>;
  required: string[];
}

/** Properties of their own, each required. */
const plain = (properties: Record<string, object>, optional: string[] = []): ObjectParts => ({
  properties,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
});

/** The properties of an object of `fields` (nested objects, such as address, built from their paths); an optional field is not required. */
function ofFields(fields: readonly Field[], depth = 0): ObjectParts {
  const parts: ObjectParts = { properties: {}, required: [] };
  for (const f of fields) {
    const key = f.path[depth]!;
    if (key in parts.properties) continue;
    if (f.path.length === depth + 1) {
      parts.properties[key] = f.schema;
      if (!f.optional) parts.required.push(key);
      continue;
    }
    const nested = ofFields(
      fields.filter((g) => g.path.length > depth + 1 && g.path[depth] === key),
      depth + 1,
    );
    parts.properties[key] = { type: 'object', additionalProperties: false, required: nested.required, properties: nested.properties };
    if (nested.required.length) parts.required.push(key);
  }
  return parts;
}

const employmentRecordSchemas = Object.fromEntries(
  employmentRecordKindNames.map((kind) => {
    const { properties, required } = ofFields(employmentRecordKinds[kind].fields);
    return [kind, record(kind, { properties: { employeeId: uuid, ...properties }, required: ['employeeId', ...required] })];
  }),
) as Record<EmploymentRecordKindName, object>;

/** A credential's token hash in a record: the hex SHA-256 of its token. */
export const TOKEN_HASH_PATTERN = '^[0-9a-f]{64}$';

export const recordSchemas: Record<ImportRecord['type'], object> = {
  company: record('company', plain({ id: companyIdSchema, name: text() })),
  person: record('person', plain({ id: uuid, createdAt: dateTime, updatedAt: dateTime })),
  employee: record('employee', ofFields(employeeFields)),
  ...employmentRecordSchemas,
  credential: {
    ...record(
      'credential',
      plain(
        {
          id: uuid,
          name: credentialNameSchema,
          token: { type: 'string', minLength: 16, maxLength: 200 },
          tokenHash: { type: 'string', pattern: TOKEN_HASH_PATTERN },
          companies: { type: 'array', items: companyIdSchema },
          // Group names, checked by the one reading of a field list (check.ts), which names the groups.
          fields: { type: 'array', items: { type: 'string' } },
          purpose: credentialPurposeSchema,
        },
        ['id', 'token', 'tokenHash'],
      ),
    ),
    oneOf: [{ required: ['token'] }, { required: ['tokenHash'] }],
  },
  delete: {
    oneOf: [
      record('delete', plain({ record: { enum: ['employee', 'person'] }, id: uuid })),
      record('delete', plain({ record: { const: 'company' }, id: companyIdSchema })),
      record('delete', plain({ record: { enum: employmentRecordKindNames }, employeeId: uuid })),
    ],
  },
};
