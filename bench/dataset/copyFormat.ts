// Dataset entities as rows of PostgreSQL's COPY text format, one table at a time, with
// the derived columns the import would compute: folded names (domain/names.ts foldName)
// and person_created_at (the person's created_at, copied onto each employment).
import { foldName } from '../../server/domain/names.js';
import type { Employment, Person } from './generate.js';

/** Tables filled by COPY, in dependency order, with their column lists. */
export const copyTables = {
  persons: ['id', 'created_at', 'updated_at'],
  employees: [
    'id', 'company_id', 'person_id', 'person_created_at', 'person_updated_at', 'first_name', 'last_name', 'first_name_folded', 'last_name_folded',
    'date_of_birth', 'gender', 'email', 'phone', 'address_line1', 'address_line2', 'city', 'state', 'postal_code', 'created_at', 'updated_at',
    'membership_status', 'invitation_status', 'invitation_invited_at', 'invitation_expires_at', 'linked_user_status',
    'has_participation', 'participation_decision', 'participation_decided_at',
    'coverage_status', 'coverage_starts_at', 'coverage_ends_at', 'coverage_plan_tier', 'external_ids',
  ],
} as const;

export type CopyTable = keyof typeof copyTables;
export type CopyBuffers = Record<CopyTable, string[]>;

export const emptyBuffers = (): CopyBuffers => ({
  persons: [], employees: [],
});

const NULL = '\\N';
const SPECIAL = /[\\\t\n\r]/;
/** A text value escaped for COPY's text format (backslash, tab, newline, carriage return). */
function text(value: string | null): string {
  if (value === null) return NULL;
  if (!SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}
const time = (ms: number | null) => (ms === null ? NULL : new Date(ms).toISOString());

const folded = new Map<string, string>();
function fold(name: string): string {
  let out = folded.get(name);
  if (out === undefined) {
    out = foldName(name);
    if (folded.size < 200_000) folded.set(name, out);
  }
  return out;
}

export function appendPerson(buffers: CopyBuffers, person: Person): void {
  buffers.persons.push(`${person.id}\t${time(person.createdAt)}\t${time(person.updatedAt)}\n`);
  for (const employment of person.employments) appendEmployment(buffers, employment, person.updatedAt);
}

/** External ids as the employment stores them (migration 006): by system, then id, in byte order. */
const byCodePoint = (a: string, b: string) => (a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b)));
const externalIdsJson = (ids: Employment['externalIds']) =>
  JSON.stringify([...ids].sort(([s1, i1], [s2, i2]) => byCodePoint(s1, s2) || byCodePoint(i1, i2)).map(([system, system_id]) => ({ system, system_id })));

export function appendEmployment(b: CopyBuffers, e: Employment, personUpdatedAt: number | null): void {
  b.employees.push(
    [
      e.id, e.companyId, e.personId ?? NULL, time(e.personCreatedAt), time(personUpdatedAt), text(e.firstName), text(e.lastName), text(fold(e.firstName)), text(fold(e.lastName)),
      e.dateOfBirth, text(e.gender), text(e.email), e.phone, text(e.line1), text(e.line2), text(e.city), text(e.state), e.postalCode, time(e.createdAt), time(e.updatedAt),
      // The employment's own records (migration 005), each at most one.
      e.membership ?? NULL, e.invitation?.status ?? NULL, time(e.invitation?.invitedAt ?? null), time(e.invitation?.expiresAt ?? null), e.linkedUser ?? NULL,
      e.participation ? 't' : 'f', e.participation?.decision ?? NULL, time(e.participation?.decidedAt ?? null),
      e.coverage?.status ?? NULL, time(e.coverage?.startsAt ?? null), time(e.coverage?.endsAt ?? null), text(e.coverage?.planTier ?? null),
      text(externalIdsJson(e.externalIds)),
    ].join('\t') + '\n',
  );
}
