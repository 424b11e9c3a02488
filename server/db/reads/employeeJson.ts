// The contract's Employee objects (components/schemas), built by PostgreSQL as JSON text in
// every read statement itself: the service sends that text untouched instead of parsing
// rows, building objects and serializing them again. The Employee follows the
// employment's declaration (domain/employment.ts, employeeJsonLayout), less the field
// groups the credential lacks (domain/fieldGroups.ts): their keys are left out and their
// columns are not named, so their values never leave the database. Contract validation of
// every response in the tests keeps this shape honest.
import { type EmploymentRecordKind, employeeFields, employeeJsonLayout, employmentRecordKinds } from '../../domain/employment.js';
import { type FieldSet, fieldGroups, withheldGroups } from '../../domain/fieldGroups.js';
import type { DerivedNode, Field, RecordNode } from '../../domain/fields.js';
import { kindPresent } from '../employmentColumns.js';

/** An instant as the contract writes it, e.g. 2024-03-01T09:30:00.000Z (as Date.toISOString would); NULL stays NULL. */
export const iso = (instant: string) => `to_char(${instant} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An instant at the microseconds it is stored with, as a cursor names a result's place (domain/pageCursor.ts SortKey.at). */
export const sortAt = (instant: string) => `to_char(${instant} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The instant of the statement's snapshot as `asOf` shows it (milliseconds): what the
 * response, the membership status and the access audit entry all refer to. On a replica
 * the statement reads the primary's heartbeat instead (replicas/heartbeat.ts replaces this text).
 */
export const AS_OF = `date_trunc('milliseconds', statement_timestamp())`;

/**
 * membership.status, by the rules of server/domain/membershipStatus.ts (the first that
 * applies wins), as of `asOf`; the expiry is compared as shown, in milliseconds.
 * tests/persons/membershipStatusSql.test.ts checks both agree on every combination.
 */
export function membershipStatusSql(e: string): string {
  return `CASE WHEN ${e}.membership_status = 'active' THEN 'active'
               WHEN ${e}.membership_status = 'revoked' OR ${e}.linked_user_status = 'deactivated' THEN 'revoked_access'
               WHEN ${e}.invitation_status = 'pending' AND date_trunc('milliseconds', ${e}.invitation_expires_at) > ${AS_OF} THEN 'invited_pending'
               WHEN ${e}.invitation_status = 'pending' THEN 'invited_expired'
               ELSE 'not_invited' END`;
}

/** What an Employee shows: the credential's field groups, and which external systems' ids (the placeholder of a text[]; undefined: all). */
export interface EmployeeShows {
  fields: FieldSet;
  systems?: string;
}

/** One employment `e` as an Employee, showing what `shows` says. */
export function employeeJson(e: string, { fields, systems }: EmployeeShows): string {
  const externalIds =
    systems === undefined
      ? `${e}.external_ids`
      : `(SELECT coalesce(jsonb_agg(x.id ORDER BY x.n), '[]') FROM jsonb_array_elements(${e}.external_ids) WITH ORDINALITY AS x(id, n)
           WHERE x.id->>'system' = ANY (${systems}::text[]))`;
  const [before, after] = employeeJsonAround(e, fields);
  return after === undefined ? before : before + externalIds + after;
}

type LayoutNode = string | RecordNode | DerivedNode | { readonly [key: string]: LayoutNode };

const fieldNamed = new Map<string, Field>(employeeFields.map((f) => [f.name, f]));
/** Where the external ids go: they alone depend on the query (which systems it shows). */
const EXTERNAL_IDS = '\u0000externalIds\u0000';
/** The Employee's SQL for each alias and field set, before and after its external ids (after: undefined where they are withheld): built once, not per query. */
const aroundExternalIds = new Map<string, [string, string | undefined]>();

function employeeJsonAround(e: string, fields: FieldSet): [string, string | undefined] {
  const key = `${e} ${fields.join(',')}`;
  let parts = aroundExternalIds.get(key);
  if (!parts) {
    const withheld = new Set<string>(withheldGroups(fields).flatMap((group) => fieldGroups[group].shows));
    const [before, after, ...rest] = layoutSql(employeeJsonLayout, e, '', withheld).split(EXTERNAL_IDS);
    if (rest.length || (after === undefined) !== withheld.has('externalIds')) throw new Error('the Employee layout must show externalIds once');
    aroundExternalIds.set(key, (parts = [before!, after]));
  }
  return parts;
}

/** A field's value as the contract writes it (an instant as `iso` writes it). */
const fieldSql = (f: Field, e: string) => (f.type === 'timestamptz' ? iso(`${e}.${f.column}`) : `${e}.${f.column}`);

/** json_build_object of these keys and values: one key per line at the top, inline below. */
const objectSql = (entries: [string, string][], depth: number) =>
  depth === 0
    ? `json_build_object(\n    ${entries.map(([key, value]) => `'${key}', ${value}`).join(',\n    ')})`
    : `json_build_object(${entries.map(([key, value]) => `'${key}', ${value}`).join(', ')})`;

/** The SQL of a layout node at `path` (its keys joined by dots), leaving out the withheld paths. */
function layoutSql(node: LayoutNode, e: string, path: string, withheld: ReadonlySet<string>): string {
  const depth = path === '' ? 0 : path.split('.').length;
  if (typeof node === 'string') return node === 'externalIds' ? EXTERNAL_IDS : fieldSql(fieldNamed.get(node)!, e);
  if ('$derived' in node) return membershipStatusSql(e);
  if ('$record' in node) {
    const kind = node.$record as keyof typeof employmentRecordKinds;
    const { fields }: EmploymentRecordKind = employmentRecordKinds[kind];
    const record = objectSql(
      fields.map((f) => [f.name, fieldSql(f, e)]),
      depth,
    );
    return `CASE WHEN ${kindPresent(kind, (column) => `${e}.${column}`)} THEN ${record} END`;
  }
  const shown = Object.entries(node).flatMap(([key, child]): [string, string][] => {
    const at = path === '' ? key : `${path}.${key}`;
    return withheld.has(at) ? [] : [[key, layoutSql(child, e, at, withheld)]];
  });
  return objectSql(shown, depth);
}
