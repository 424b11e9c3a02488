// The import format: one JSON object per source record, as NDJSON lines or a JSON array.
// FORMAT.md beside this file documents it for operators; the JSON Schemas below are
// what every record is checked against before anything is written.

export interface CompanyRecord { type: 'company'; id: string; name: string }
export interface PersonRecord { type: 'person'; id: string; createdAt: string; updatedAt: string }
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
export interface MembershipRecord { type: 'membership'; employeeId: string; status: 'active' | 'revoked' }
export interface InvitationRecord { type: 'invitation'; employeeId: string; status: 'pending' | 'accepted' | 'revoked'; invitedAt: string; expiresAt: string }
export interface LinkedUserRecord { type: 'linkedUser'; employeeId: string; status: 'active' | 'deactivated' }
export interface ParticipationRecord { type: 'participation'; employeeId: string; decision: 'opt_in' | 'opt_out' | null; decidedAt: string | null }
export interface CoverageRecord {
  type: 'coverage';
  employeeId: string;
  status: 'enrolled' | 'enrolled_not_paying' | 'awaiting_coverage' | 'waived' | 'terminated';
  startsAt: string;
  endsAt: string | null;
  planTier: string | null;
}
/** A credential: `tokenHash` (hex SHA-256) for real ones, or a plaintext `token` for fixtures. */
export interface CredentialRecord { type: 'credential'; id?: string; name: string; token?: string; tokenHash?: string; companies: string[] }

export type ImportRecord =
  | CompanyRecord | PersonRecord | EmployeeRecord | MembershipRecord | InvitationRecord
  | LinkedUserRecord | ParticipationRecord | CoverageRecord | CredentialRecord;

/** Source records that hang off one employment, at most one of each per employment. */
export const perEmployeeTypes = ['membership', 'invitation', 'linkedUser', 'participation', 'coverage'] as const;
export type PerEmployeeType = (typeof perEmployeeTypes)[number];

const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const text = (max = 200) => ({ type: 'string', minLength: 1, maxLength: max });
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const companyId = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$' };
const record = (type: string, properties: Record<string, object>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: ['type', ...Object.keys(properties).filter((k) => !optional.includes(k))],
  properties: { type: { const: type }, ...properties },
});

export const recordSchemas: Record<ImportRecord['type'], object> = {
  company: record('company', { id: companyId, name: text() }),
  person: record('person', { id: uuid, createdAt: dateTime, updatedAt: dateTime }),
  employee: record('employee', {
    id: uuid,
    companyId,
    personId: nullable(uuid),
    firstName: text(),
    lastName: text(),
    dateOfBirth: { type: 'string', format: 'date' },
    gender: nullable({ type: 'string', maxLength: 50 }),
    email: text(320),
    phone: text(64),
    address: {
      type: 'object',
      additionalProperties: false,
      required: ['line1', 'line2', 'city', 'state', 'postalCode'],
      properties: { line1: text(), line2: nullable({ type: 'string', maxLength: 200 }), city: text(), state: text(100), postalCode: text(20) },
    },
    externalIds: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['system', 'system_id'], properties: { system: text(64), system_id: text(200) } },
    },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  membership: record('membership', { employeeId: uuid, status: { enum: ['active', 'revoked'] } }),
  invitation: record('invitation', { employeeId: uuid, status: { enum: ['pending', 'accepted', 'revoked'] }, invitedAt: dateTime, expiresAt: dateTime }),
  linkedUser: record('linkedUser', { employeeId: uuid, status: { enum: ['active', 'deactivated'] } }),
  participation: record('participation', { employeeId: uuid, decision: { enum: ['opt_in', 'opt_out', null] }, decidedAt: nullable(dateTime) }),
  coverage: record('coverage', {
    employeeId: uuid,
    status: { enum: ['enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated'] },
    startsAt: dateTime,
    endsAt: nullable(dateTime),
    planTier: nullable({ type: 'string', maxLength: 100 }),
  }),
  credential: {
    ...record('credential', { id: uuid, name: text(), token: { type: 'string', minLength: 16, maxLength: 200 }, tokenHash: { type: 'string', pattern: '^[0-9a-f]{64}$' }, companies: { type: 'array', items: companyId } }, ['id', 'token', 'tokenHash']),
    oneOf: [{ required: ['token'] }, { required: ['tokenHash'] }],
  },
};
