// The one declaration of an employment: each field of the import's `employee` record and of
// its per-employment records (membership, invitation, linked user, participation,
// coverage), the employees column it is stored in, its SQL type and JSON Schema; where the
// contract's Employee shows each; and the search filters. From it come the import's record
// schemas and types (importing/records.ts) and its staging rows (importing/rows.ts), the
// import's SQL (db/import/), the Employee JSON the person query builds (db/reads/employeeJson.ts),
// the filters' conditions (db/reads/personFilters.ts) and the bench's COPY columns.
// Adding a field or a filter: docs/contributing/adding-a-field.md.
import type { components } from '../../generated/types.full.js';
import {
  anyText,
  type ColumnsOf,
  companyIdSchema,
  date,
  dateTime,
  type Expand,
  type Field,
  type FilterRule,
  field,
  type JsonLayout,
  nullable,
  oneOf,
  type RecordOf,
  type Schema,
  text,
  uuid,
} from './fields.js';

/** The `employee` record's fields, in the order they are staged and stored. */
export const employeeFields = [
  field('id', 'id', 'uuid', uuid),
  field('companyId', 'company_id', 'text', companyIdSchema),
  field('personId', 'person_id', 'uuid', nullable(uuid)),
  field('firstName', 'first_name', 'text', text(), { folded: 'first_name_folded' }),
  field('lastName', 'last_name', 'text', text(), { folded: 'last_name_folded' }),
  field('dateOfBirth', 'date_of_birth', 'date', date),
  field('gender', 'gender', 'text', nullable(anyText(50))),
  field('email', 'email', 'text', text(320)),
  // Any common format in the record; stored in E.164 (the import normalizes it).
  field('phone', 'phone', 'text', text(64)),
  field('address.line1', 'address_line1', 'text', text()),
  field('address.line2', 'address_line2', 'text', nullable(anyText(200))),
  field('address.city', 'city', 'text', text()),
  field('address.state', 'state', 'text', text(100)),
  field('address.postalCode', 'postal_code', 'text', text(20)),
  // Stored distinct and ordered by system, then system_id (the import normalizes it).
  field('externalIds', 'external_ids', 'jsonb', {
    type: 'array',
    items: { type: 'object', additionalProperties: false, required: ['system', 'system_id'], properties: { system: text(64), system_id: text(200) } },
  } as Schema<{ system: string; system_id: string }[]>),
  field('createdAt', 'created_at', 'timestamptz', dateTime),
  field('updatedAt', 'updated_at', 'timestamptz', dateTime),
] as const;

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
    // A boolean column that says the record exists, where no field does (participation's can all be null).
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
      field('planTier', 'coverage_plan_tier', 'text', nullable(anyText(100))),
    ],
  },
} as const satisfies Record<string, EmploymentRecordKind>;

/** The person's times, which the database copies onto each of their employments (server/db/derived/README.md). */
export const personTimeColumns = ['person_created_at', 'person_updated_at'] as const;

/** Where the contract's Employee takes each value (its keys in the contract's order). */
export const employeeJsonLayout = {
  id: 'id',
  companyId: 'companyId',
  personId: 'personId',
  externalIds: 'externalIds',
  demographics: { firstName: 'firstName', lastName: 'lastName', dateOfBirth: 'dateOfBirth', gender: 'gender' },
  contact: {
    email: 'email',
    phone: 'phone',
    address: { line1: 'address.line1', line2: 'address.line2', city: 'address.city', state: 'address.state', postalCode: 'address.postalCode' },
  },
  membership: { status: { $derived: 'membershipStatus' }, invitation: { $record: 'invitation' } },
  participation: { $record: 'participation' },
  coverage: { $record: 'coverage' },
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
} as const satisfies JsonLayout<components['schemas']['Employee'], EmployeeFieldName, EmploymentRecordKindName>;

/**
 * The search filters, each the request field of its name (the contract's
 * SearchPersonsRequest), in the order their conditions are written. The names are matched
 * through the name structures where they can be (db/reads/persons/nameRoutes.ts).
 */
export const personFilters = {
  companyId: { column: 'company_id', match: 'equals', rollups: 'company' },
  firstName: { column: 'first_name_folded', match: 'contains', rollups: 'cannot' },
  lastName: { column: 'last_name_folded', match: 'contains', rollups: 'cannot' },
  phone: { column: 'phone', match: 'equals', value: 'e164', lookup: true, rollups: 'cannot' },
  personId: { column: 'person_id', match: 'equals', cast: 'uuid', lookup: true, rollups: 'cannot' },
  // Whole days from the rollups, the partial first and last day counted exactly.
  createdFrom: { column: 'person_created_at', match: 'atLeast', cast: 'timestamptz', rollups: 'creation day' },
  createdBefore: { column: 'person_created_at', match: 'below', cast: 'timestamptz', rollups: 'creation day' },
} as const satisfies { [Name in keyof SearchRequest]?: FilterRule<EmploymentColumn> };

/**
 * The filters of Search employees (the contract's SearchEmployeesRequest), in the order
 * their conditions are written: the person search's, on the one employment, with the
 * created range on the employment's own creation time. They read only the unlinked
 * records' index (employees_unlinked, migration 005), never the name structures or
 * rollups, which hold linked employments alone.
 */
export const employeeFilters = {
  companyId: { column: 'company_id', match: 'equals', rollups: 'cannot' },
  firstName: { column: 'first_name_folded', match: 'contains', rollups: 'cannot' },
  lastName: { column: 'last_name_folded', match: 'contains', rollups: 'cannot' },
  phone: { column: 'phone', match: 'equals', value: 'e164', rollups: 'cannot' },
  createdFrom: { column: 'created_at', match: 'atLeast', cast: 'timestamptz', rollups: 'cannot' },
  createdBefore: { column: 'created_at', match: 'below', cast: 'timestamptz', rollups: 'cannot' },
} as const satisfies { [Name in keyof SearchEmployeesRequest]?: FilterRule<EmploymentColumn> };

type SearchEmployeesRequest = components['schemas']['SearchEmployeesRequest'];
type UnfilteredEmployeeField = Exclude<keyof SearchEmployeesRequest, keyof typeof employeeFilters | NotAFilter>;
const everyEmployeeRequestFieldFilters: [UnfilteredEmployeeField] extends [never] ? true : { missingFilter: UnfilteredEmployeeField } = true;
void everyEmployeeRequestFieldFilters;

// Every field of the search request is a filter, but paging and what the answer shows.
type SearchRequest = components['schemas']['SearchPersonsRequest'];
type NotAFilter = 'limit' | 'offset' | 'cursor' | 'externalIdSystems';
type Unfiltered = Exclude<keyof SearchRequest, keyof typeof personFilters | NotAFilter>;
const everyRequestFieldFilters: [Unfiltered] extends [never] ? true : { missingFilter: Unfiltered } = true;
void everyRequestFieldFilters;

export interface EmploymentRecordKind {
  /** The record's fields besides `employeeId`. */
  readonly fields: readonly Field[];
  /** A boolean column that says the record exists, where no field does. */
  readonly flag?: string;
}

export type EmploymentRecordKindName = keyof typeof employmentRecordKinds;
export const employmentRecordKindNames = Object.keys(employmentRecordKinds) as EmploymentRecordKindName[];
export type EmployeeFieldName = (typeof employeeFields)[number]['name'];

/** Every column of an employment the declaration knows. */
export type EmploymentColumn =
  | ColumnsOf<typeof employeeFields>
  | { [Kind in EmploymentRecordKindName]: ColumnsOf<(typeof employmentRecordKinds)[Kind]['fields']> }[EmploymentRecordKindName]
  | {
      [Kind in EmploymentRecordKindName]: (typeof employmentRecordKinds)[Kind] extends { flag: infer Flag extends string } ? Flag : never;
    }[EmploymentRecordKindName]
  | (typeof personTimeColumns)[number];

/** The import's `employee` record, as its fields describe it. */
export type EmployeeRecord = Expand<{ type: 'employee' } & RecordOf<typeof employeeFields>>;
/** A per-employment record of one kind, as its fields describe it. */
export type EmploymentRecordOf<Kind extends EmploymentRecordKindName> = Expand<
  { type: Kind; employeeId: string } & RecordOf<(typeof employmentRecordKinds)[Kind]['fields']>
>;
