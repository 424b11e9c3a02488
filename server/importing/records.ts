// The import format: one JSON object per source record, as NDJSON lines or a JSON array.
// FORMAT.md beside this file documents it for operators; the JSON Schemas below are what
// every record is checked against. An employment's fields and schemas come from their one
// definition, server/db/employmentColumns.ts.
import {
  companyIdSchema,
  type EmploymentRecordKindName,
  employeeFields,
  employmentRecordKindNames,
  employmentRecordKinds,
  type FieldColumn,
} from '../db/employmentColumns.js';
import { isStorableDate, isUuid, storedInstant } from '../domain/formats.js';

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
export interface EmployeeRecord {
  type: 'employee';
  id: string;
  companyId: string;
  personId: string | null;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  gender: string | null;
  email: string;
  phone: string;
  address: { line1: string; line2: string | null; city: string; state: string; postalCode: string };
  externalIds: { system: string; system_id: string }[];
  createdAt: string;
  updatedAt: string;
}
export interface MembershipRecord {
  type: 'membership';
  employeeId: string;
  status: 'active' | 'revoked';
}
export interface InvitationRecord {
  type: 'invitation';
  employeeId: string;
  status: 'pending' | 'accepted' | 'revoked';
  invitedAt: string;
  expiresAt: string;
}
export interface LinkedUserRecord {
  type: 'linkedUser';
  employeeId: string;
  status: 'active' | 'deactivated';
}
export interface ParticipationRecord {
  type: 'participation';
  employeeId: string;
  decision: 'opt_in' | 'opt_out' | null;
  decidedAt: string | null;
}
export interface CoverageRecord {
  type: 'coverage';
  employeeId: string;
  status: 'enrolled' | 'enrolled_not_paying' | 'awaiting_coverage' | 'waived' | 'terminated';
  startsAt: string;
  endsAt: string | null;
  planTier: string | null;
}
/** A credential: `tokenHash` (hex SHA-256) for real ones, or a plaintext `token` for fixtures. */
export interface CredentialRecord {
  type: 'credential';
  id?: string;
  name: string;
  token?: string;
  tokenHash?: string;
  companies: string[];
}
/** Removes a stored record; one already absent is counted, not refused. */
export type DeleteRecord =
  | { type: 'delete'; record: 'employee' | 'person' | 'company'; id: string }
  | { type: 'delete'; record: EmploymentRecordKindName; employeeId: string };

export type EmploymentRecord = MembershipRecord | InvitationRecord | LinkedUserRecord | ParticipationRecord | CoverageRecord;
export type ImportRecord = CompanyRecord | PersonRecord | EmployeeRecord | EmploymentRecord | CredentialRecord | DeleteRecord;

// Each per-employment kind is a record type of the same name.
type KindsAreRecordTypes = EmploymentRecordKindName extends EmploymentRecord['type']
  ? EmploymentRecord['type'] extends EmploymentRecordKindName
    ? true
    : never
  : never;
const kindsAreRecordTypes: KindsAreRecordTypes = true;
void kindsAreRecordTypes;

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

const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const text = (max = 200) => ({ type: 'string', minLength: 1, maxLength: max });
const record = (type: string, properties: Record<string, object>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: ['type', ...Object.keys(properties).filter((k) => !optional.includes(k))],
  properties: { type: { const: type }, ...properties },
});

/** The JSON Schema properties of fields, nested objects (address) built from their paths. */
function properties(fields: readonly FieldColumn[]): Record<string, object> {
  const tree: Record<string, any> = {};
  for (const f of fields) {
    let node = tree;
    for (const key of f.path.slice(0, -1)) node = node[key] ??= {};
    node[f.path.at(-1)!] = f.schema;
  }
  const toSchema = (node: Record<string, any>): Record<string, object> =>
    Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        const nested = fields.some((f) => f.path.length > 1 && f.path[0] === key) && !('type' in value || 'anyOf' in value || 'enum' in value);
        return [key, nested ? { type: 'object', additionalProperties: false, required: Object.keys(value), properties: toSchema(value) } : value];
      }),
    );
  return toSchema(tree);
}

const employmentRecordSchemas = Object.fromEntries(
  employmentRecordKindNames.map((kind) => [kind, record(kind, { employeeId: uuid, ...properties(employmentRecordKinds[kind].fields) })]),
) as Record<EmploymentRecordKindName, object>;

export const recordSchemas: Record<ImportRecord['type'], object> = {
  company: record('company', { id: companyIdSchema, name: text() }),
  person: record('person', { id: uuid, createdAt: dateTime, updatedAt: dateTime }),
  employee: record('employee', properties(employeeFields)),
  ...employmentRecordSchemas,
  credential: {
    ...record(
      'credential',
      {
        id: uuid,
        name: text(),
        token: { type: 'string', minLength: 16, maxLength: 200 },
        tokenHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        companies: { type: 'array', items: companyIdSchema },
      },
      ['id', 'token', 'tokenHash'],
    ),
    oneOf: [{ required: ['token'] }, { required: ['tokenHash'] }],
  },
  delete: {
    oneOf: [
      record('delete', { record: { enum: ['employee', 'person'] }, id: uuid }),
      record('delete', { record: { const: 'company' }, id: companyIdSchema }),
      record('delete', { record: { enum: employmentRecordKindNames }, employeeId: uuid }),
    ],
  },
};
