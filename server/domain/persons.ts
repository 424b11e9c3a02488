// What the person operations mean: turning a search request into a filter over the
// credential's companies, and the page of people it selects. The people come back as the
// contract's JSON, built by the person query (server/db/persons/personJson.ts), and are sent as
// they are.
import type { components } from '../../generated/types.full.js';
import { ApiError } from '../errors.js';
import type { Credential } from './credentials.js';
import { personFilters } from './employment.js';
import type { FilterRule } from './fields.js';
import { foldName } from './names.js';
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
  /** The credential whose companies bound what matches and shows... */
  credentialId: string;
  /** ...which are these; passed inline when there are at most `inlineCompaniesMax` (for persons, 50 times that for a name fragment of 3+ characters). */
  authorizedCompanies: readonly string[];
  inlineCompaniesMax: number;
  limit: number;
  offset: number;
  /** Which external systems' ids to show; undefined shows all. */
  externalIdSystems?: readonly string[];
  /** The credential's Credential.readPosition: the page is read where the data is at least that far. */
  readPosition?: bigint;
}

export type PersonFilter<Rules = typeof personFilters> = SearchScope & {
  /** How many companies the credential does not hold (Credential.companiesOutside), when known: it picks the order a name search reads in. */
  companiesOutside?: number;
} & FilterValuesOf<Rules>;

/** A page as the operations answer it: its asOf and exact total, and each person's id (as PostgreSQL writes it) and JSON text, in response order. */
export interface PersonPage {
  asOf: string;
  total: number;
  persons: { id: string; json: string }[];
}

export interface PersonQueryOptions {
  defaultPhoneRegion: string;
  inlineCompaniesMax: number;
}

/** The filter a search request stands for, for this credential. */
export function searchFilter(request: SearchRequest, credential: Credential, options: PersonQueryOptions): PersonFilter {
  return {
    ...searchScope(request, credential, options),
    companiesOutside: credential.companiesOutside,
    ...filterValues(personFilters, request, options),
  };
}

/** The scope of a search request (its paging and the external ids it shows), for this credential. */
export function searchScope(
  request: { limit?: number; offset?: number; externalIdSystems?: string[] },
  credential: Credential,
  { inlineCompaniesMax }: PersonQueryOptions,
): SearchScope {
  return {
    credentialId: credential.companySetId,
    authorizedCompanies: credential.companyList,
    inlineCompaniesMax,
    limit: request.limit ?? DEFAULT_LIMIT,
    offset: request.offset ?? 0,
    externalIdSystems: request.externalIdSystems,
    readPosition: credential.readPosition,
  };
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
    if (!phone) throw new ApiError('invalid_request', [{ path: `/body/${name}`, message: 'is not a phone number' }]);
    return phone;
  }
  return rule.match === 'contains' ? foldName(given) : given;
}
