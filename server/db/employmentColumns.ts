// The one definition of an employment's stored shape: each field of the import's
// `employee` record and of its per-employment records (membership, invitation, linked
// user, participation, coverage), the employees column it is stored in, its SQL type and
// its JSON Schema. From it come the import's record schemas (importing/records.ts), its
// staging tables and write statement (db/import/) and the bench's COPY columns. Adding a field: one entry here, a
// migration adding the column, and where the contract shows it (db/personJson.ts).

export type SqlType = 'uuid' | 'text' | 'date' | 'timestamptz' | 'jsonb' | 'boolean';

export interface FieldColumn {
  /** Where the value sits in the record: ['address', 'line1'] is record.address.line1. */
  path: readonly string[];
  column: string;
  type: SqlType;
  /** JSON Schema of the field (nullable fields say so here). */
  schema: object;
}

const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const text = (max = 200) => ({ type: 'string', minLength: 1, maxLength: max });
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const oneOf = (...values: (string | null)[]) => ({ enum: values });
export const companyIdSchema = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$' };

const field = (path: string, column: string, type: SqlType, schema: object): FieldColumn => ({ path: path.split('.'), column, type, schema });

/** The `employee` record's fields. */
export const employeeFields: readonly FieldColumn[] = [
  field('id', 'id', 'uuid', uuid),
  field('companyId', 'company_id', 'text', companyIdSchema),
  field('personId', 'person_id', 'uuid', nullable(uuid)),
  field('firstName', 'first_name', 'text', text()),
  field('lastName', 'last_name', 'text', text()),
  field('dateOfBirth', 'date_of_birth', 'date', { type: 'string', format: 'date' }),
  field('gender', 'gender', 'text', nullable({ type: 'string', maxLength: 50 })),
  field('email', 'email', 'text', text(320)),
  // Any common format in the record; stored in E.164 (the import normalizes it).
  field('phone', 'phone', 'text', text(64)),
  field('address.line1', 'address_line1', 'text', text()),
  field('address.line2', 'address_line2', 'text', nullable({ type: 'string', maxLength: 200 })),
  field('address.city', 'city', 'text', text()),
  field('address.state', 'state', 'text', text(100)),
  field('address.postalCode', 'postal_code', 'text', text(20)),
  // Stored distinct and ordered by system, then system_id (the import normalizes it).
  field('externalIds', 'external_ids', 'jsonb', {
    type: 'array',
    items: { type: 'object', additionalProperties: false, required: ['system', 'system_id'], properties: { system: text(64), system_id: text(200) } },
  }),
  field('createdAt', 'created_at', 'timestamptz', dateTime),
  field('updatedAt', 'updated_at', 'timestamptz', dateTime),
];

/** Columns the database keeps from the record's fields (server/db/derived/README.md). */
export const foldedNameColumns = [
  { column: 'first_name_folded', of: 'first_name' },
  { column: 'last_name_folded', of: 'last_name' },
] as const;
export const personTimeColumns = ['person_created_at', 'person_updated_at'] as const;

export interface EmploymentRecordKind {
  /** The record's fields besides `employeeId`. */
  fields: readonly FieldColumn[];
  /** A boolean column that says the record exists, where no field does (participation's can all be null). */
  flag?: string;
}

/** The records that hang off one employment, at most one of each, keyed by `employeeId`. */
export const employmentRecordKinds = {
  membership: { fields: [field('status', 'membership_status', 'text', oneOf('active', 'revoked'))] },
  invitation: {
    fields: [
      field('status', 'invitation_status', 'text', oneOf('pending', 'accepted', 'revoked')),
      field('invitedAt', 'invitation_invited_at', 'timestamptz', dateTime),
      field('expiresAt', 'invitation_expires_at', 'timestamptz', dateTime),
    ],
  },
  linkedUser: { fields: [field('status', 'linked_user_status', 'text', oneOf('active', 'deactivated'))] },
  participation: {
    flag: 'has_participation',
    fields: [
      field('decision', 'participation_decision', 'text', oneOf('opt_in', 'opt_out', null)),
      field('decidedAt', 'participation_decided_at', 'timestamptz', nullable(dateTime)),
    ],
  },
  coverage: {
    fields: [
      field('status', 'coverage_status', 'text', oneOf('enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated')),
      field('startsAt', 'coverage_starts_at', 'timestamptz', dateTime),
      field('endsAt', 'coverage_ends_at', 'timestamptz', nullable(dateTime)),
      field('planTier', 'coverage_plan_tier', 'text', nullable({ type: 'string', maxLength: 100 })),
    ],
  },
} as const satisfies Record<string, EmploymentRecordKind>;

export type EmploymentRecordKindName = keyof typeof employmentRecordKinds;
export const employmentRecordKindNames = Object.keys(employmentRecordKinds) as EmploymentRecordKindName[];

/** A kind's columns: its flag (if any) and its fields'. */
export function kindColumns(kind: EmploymentRecordKindName): { column: string; type: SqlType }[] {
  const definition: EmploymentRecordKind = employmentRecordKinds[kind];
  return [...(definition.flag ? [{ column: definition.flag, type: 'boolean' as const }] : []), ...definition.fields];
}

/** Whether an employment row holds a record of this kind (SQL over its columns, each as `column` names it). */
export function kindPresent(kind: EmploymentRecordKindName, column: (name: string) => string): string {
  const definition: EmploymentRecordKind = employmentRecordKinds[kind];
  return definition.flag ? column(definition.flag) : `${column(definition.fields[0]!.column)} IS NOT NULL`;
}

/** Every column an employment is written with, in one fixed order (the write statement's and the COPY's). */
export const employmentColumns: { column: string; type: SqlType }[] = [
  ...employeeFields,
  ...foldedNameColumns.map(({ column }) => ({ column, type: 'text' as const })),
  ...employmentRecordKindNames.flatMap(kindColumns),
];

/** The value at `path` in a record. */
export function valueAt(record: unknown, path: readonly string[]): unknown {
  let value = record as any;
  for (const key of path) value = value?.[key];
  return value;
}
