// The field groups a credential may read (docs/decisions/0019-field-groups-and-purposes.md): each a named
// part of the contract's Employee, so a credential is granted only the personal data its
// purpose needs. This list is the one place they are declared: the Employee JSON the read
// path builds (db/reads), the filters a search may use, the contract's documentation, the
// commands' help and the import's checks all follow from it. Ids, `companyId`, `personId`,
// `createdAt` and `updatedAt` belong to no group: every credential reads them.
import type { components } from '../../generated/types.full.js';

type Employee = components['schemas']['Employee'];
type Schemas = components['schemas'];
/** A field of a search request (or Get person's query): what a field group may guard. */
type RequestField = keyof Schemas['SearchPersonsRequest'] | keyof Schemas['SearchEmployeesRequest'];

/** A path into the Employee, as its keys are written: `contact.address`. */
type PathOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends readonly unknown[]
    ? `${Prefix}${K}`
    : NonNullable<T[K]> extends object
      ? `${Prefix}${K}` | PathOf<NonNullable<T[K]>, `${Prefix}${K}.`>
      : `${Prefix}${K}`;
}[keyof T & string];
export type EmployeePath = PathOf<Employee>;

export interface FieldGroupDefinition {
  /** The Employee's values the group holds, by their path (a whole object where it is one). */
  readonly shows: readonly EmployeePath[];
  /**
   * The search request fields that read the group's values: a search is an oracle for what
   * it filters on, so a credential without the group may not send them.
   */
  readonly readBy?: readonly RequestField[];
  /** What the group is, in a few words, for help texts and the contract's documentation. */
  readonly description: string;
}

/** Every field group, in the order they are listed. */
export const fieldGroups = {
  name: { shows: ['demographics.firstName', 'demographics.lastName'], readBy: ['firstName', 'lastName'], description: 'first and last name' },
  dateOfBirth: { shows: ['demographics.dateOfBirth'], description: 'date of birth' },
  gender: { shows: ['demographics.gender'], description: 'gender' },
  email: { shows: ['contact.email'], description: 'email address' },
  phone: { shows: ['contact.phone'], readBy: ['phone'], description: 'phone number' },
  address: { shows: ['contact.address'], description: 'home address' },
  externalIds: { shows: ['externalIds'], readBy: ['externalIdSystems'], description: 'ids in external systems (payroll, HRIS)' },
  membership: { shows: ['membership'], description: 'membership status and invitation' },
  participation: { shows: ['participation'], description: 'plan participation decision' },
  coverage: { shows: ['coverage'], description: 'benefit coverage' },
} as const satisfies Record<string, FieldGroupDefinition>;

export type FieldGroup = keyof typeof fieldGroups;
export const fieldGroupNames = Object.keys(fieldGroups) as FieldGroup[];

/** A request field a credential may not send, and the group it lacks for it. */
export interface FieldRefusal {
  field: string;
  group: FieldGroup;
}

/** The fields of `request` that read a group `fields` lacks (fieldGroups' readBy), in the groups' order. */
export function fieldsRefused(request: Readonly<Record<string, unknown>>, fields: FieldSet): FieldRefusal[] {
  return fieldGroupNames.flatMap((group) => {
    const readBy: readonly string[] = (fieldGroups[group] as FieldGroupDefinition).readBy ?? [];
    return fields.includes(group) ? [] : readBy.filter((field) => request[field] !== undefined).map((field) => ({ field, group }));
  });
}

/** The word that names every group. */
export const ALL_FIELDS = 'all';

/** The groups a credential reads, in fieldGroups' order. */
export type FieldSet = readonly FieldGroup[];

/** Every group: what `all` grants. */
export const everyField: FieldSet = fieldGroupNames;

export function isFieldGroup(name: string): name is FieldGroup {
  return Object.hasOwn(fieldGroups, name);
}

/** Whether a set holds every group (what `all` granted). */
export function holdsEveryField(fields: FieldSet): boolean {
  return fieldGroupNames.every((group) => fields.includes(group));
}

/** The groups of `fields` a credential lacks, in fieldGroups' order. */
export function withheldGroups(fields: FieldSet): FieldGroup[] {
  return fieldGroupNames.filter((group) => !fields.includes(group));
}

/** A set in fieldGroups' order, each group once. */
export function fieldSetOf(groups: Iterable<FieldGroup>): FieldSet {
  const given = new Set(groups);
  return fieldGroupNames.filter((group) => given.has(group));
}

/**
 * The groups `text` names (`name,email`, or `all`), or why it names none: the one reading
 * of a field list, for the commands and the import alike.
 */
export function parseFieldSet(text: string): { fields: FieldSet } | { problem: string } {
  return parseFieldList(
    text
      .split(',')
      .map((word) => word.trim())
      .filter((word) => word !== ''),
  );
}

/** The groups a list of names gives (`["name", "email"]`, or `["all"]`: the import's form), or why it gives none. */
export function parseFieldList(words: readonly string[]): { fields: FieldSet } | { problem: string } {
  if (words.length === 0) return { problem: `no field group given: name some of ${fieldGroupNames.join(', ')}, or ${ALL_FIELDS}` };
  if (words.includes(ALL_FIELDS)) {
    return words.length === 1 ? { fields: everyField } : { problem: `${ALL_FIELDS} names every group: give it alone` };
  }
  const unknown = words.filter((word) => !isFieldGroup(word));
  if (unknown.length)
    return { problem: `unknown field group ${unknown.map((w) => `"${w}"`).join(', ')}: the groups are ${fieldGroupNames.join(', ')}, or ${ALL_FIELDS}` };
  return { fields: fieldSetOf(words as FieldGroup[]) };
}

/** A set as the commands show it: `all`, or its groups joined by commas. */
export function formatFieldSet(fields: FieldSet): string {
  return holdsEveryField(fields) ? ALL_FIELDS : fields.join(',');
}
