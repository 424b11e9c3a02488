// What the person operations mean: turning a search request into a filter over the
// credential's companies, and the page of people it selects. The people come back as the
// contract's JSON, built by the read path (server/db/reads/employeeJson.ts), and are sent
// as they are.
import type { components } from '../../generated/types.full.js';
import { ApiError, type ErrorDetail, fieldProblem } from '../errors.js';
import type { Credential } from './credentials.js';
import { personFilters } from './employment.js';
import { type FieldSet, fieldsRefused } from './fieldGroups.js';
import type { FilterRule } from './fields.js';
import { foldName } from './names.js';
import { type CursorKind, filterFingerprint, type PageStart, pageStartOf } from './pageCursor.js';
import { toE164 } from './phone.js';

type Schemas = components['schemas'];
export type SearchRequest = Schemas['SearchPersonsRequest'];

export const DEFAULT_LIMIT = 50;

/** Filter rules by name: the service's are personFilters (employment.ts); a test may add its own. */
export type FilterRules = { readonly [name: string]: FilterRule };
/** The values a search sets for these filters: each as the filter compares it (a name folded, a phone in E.164). */
export type FilterValuesOf<Rules> = { -readonly [Name in keyof Rules]?: string };
export type FilterName = keyof typeof personFilters;
/** The filters of a search (the person query's other inputs are authorization and paging). */
export type FilterValues = FilterValuesOf<typeof personFilters>;
export const filterNames = Object.keys(personFilters) as FilterName[];

/** Whose companies a search reads, which page and what it shows: a person search's and an employee search's (domain/employees.ts) alike. */
export interface SearchScope {
  /** The credential's company set: whose companies bound what matches and shows... */
  credentialId: string;
  /** ...which are these; passed inline when there are at most `inlineCompaniesMax` (for persons, 50 times that for a name fragment of 3+ characters). */
  authorizedCompanies: readonly string[];
  inlineCompaniesMax: number;
  limit: number;
  offset: number;
  /** Where a page asked for by cursor starts (right after this key); undefined: at `offset`. */
  start?: PageStart;
  /** The fingerprint of the search's filters, which its pages' cursors carry (pageCursor.ts). */
  fingerprint: string;
  /** Which external systems' ids to show; undefined shows all. */
  externalIdSystems?: readonly string[];
  /** The field groups the answer shows (the credential's): the read selects no other. */
  fields: FieldSet;
  /** The credential's Credential.readPosition: the page is read where the data is at least that far. */
  readPosition?: bigint;
}

export type PersonFilter<Rules = typeof personFilters> = SearchScope & {
  /** How many companies the credential does not hold (Credential.companiesOutside), when known: it picks the order a name search reads in. */
  companiesOutside?: number;
} & FilterValuesOf<Rules>;

export interface PersonQueryOptions {
  defaultPhoneRegion: string;
  inlineCompaniesMax: number;
}

/** The filter a search request stands for, for this credential. */
export function searchFilter(request: SearchRequest, credential: Credential, options: PersonQueryOptions): PersonFilter {
  const values = filterValues(personFilters, request, options);
  return {
    ...searchScope('persons', request, values, credential, options),
    companiesOutside: credential.companiesOutside,
    ...values,
  };
}

/** A search request's paging and what it shows. */
export interface ScopeRequest {
  limit?: number;
  offset?: number;
  cursor?: string;
  externalIdSystems?: string[];
}

/**
 * The scope of a search request (its paging and the external ids it shows), for this
 * credential, whose filters have these values. Its cursor is checked against them (400),
 * then the request's fields (in the body, or Get person's query) against the credential's
 * field groups (403): nothing is read before.
 */
export function searchScope(
  kind: CursorKind,
  request: ScopeRequest,
  values: Readonly<Record<string, string | undefined>>,
  credential: Credential,
  { inlineCompaniesMax }: PersonQueryOptions,
  sentIn: '/body' | '/query' = '/body',
): SearchScope {
  const offset = request.offset ?? 0;
  const fingerprint = filterFingerprint(kind, values);
  const start = request.cursor === undefined ? undefined : pageStartOf(request.cursor, kind, fingerprint, offset);
  requireFieldsFor(request as Record<string, unknown>, credential.fields, sentIn);
  return {
    credentialId: credential.companySetId,
    authorizedCompanies: credential.companyList,
    inlineCompaniesMax,
    limit: request.limit ?? DEFAULT_LIMIT,
    offset,
    start,
    fingerprint,
    externalIdSystems: request.externalIdSystems,
    fields: credential.fields,
    readPosition: credential.readPosition,
  };
}

/**
 * 403 forbidden, before anything is read, where the request sends a field that reads a
 * field group the credential lacks (a search by phone would confirm whose phone it is);
 * `details` names each field and the group it needs.
 */
function requireFieldsFor(request: Readonly<Record<string, unknown>>, fields: FieldSet, at: '/body' | '/query'): void {
  const refused = fieldsRefused(request, fields);
  if (!refused.length) return;
  const details: ErrorDetail[] = refused.map(({ field, group }) => ({
    path: `${at}/${field}`,
    message: `${field} needs the field group ${group}, which this credential is not granted`,
    fieldGroup: group,
  }));
  throw new ApiError('forbidden', details);
}

/**
 * The request's value of each of `rules`' filters (filterValue). Every filter is set, to its
 * value or undefined, in one order: each search's filter has the same shape.
 */
export function filterValues<Rules extends FilterRules>(
  rules: Rules,
  request: { readonly [Name in keyof Rules]?: string },
  { defaultPhoneRegion }: PersonQueryOptions,
): FilterValuesOf<Rules> {
  const values: FilterValuesOf<Rules> = {};
  for (const name of Object.keys(rules) as (keyof Rules & string)[]) {
    values[name] = filterValue(rules[name]!, name, request[name], defaultPhoneRegion);
  }
  return values;
}

/**
 * A request field's value as its filter (`rule`, named `name` in the request) compares it:
 * a phone in E.164, a `contains` filter's folded, others as given. Search employees reads
 * its fields by the same rules (domain/employees.ts).
 */
export function filterValue(rule: FilterRule, name: string, given: string | undefined, defaultPhoneRegion: string): string | undefined {
  if (given === undefined) return undefined;
  if (rule.value === 'e164') {
    const phone = toE164(given, defaultPhoneRegion);
    if (!phone) throw new ApiError('invalid_request', [fieldProblem(`/body/${name}`, 'must be a phone number, such as (415) 555-0132 or +44 20 7946 0958')]);
    return phone;
  }
  return rule.match === 'contains' ? foldName(given) : given;
}
