// What the person operations ask of the data layer (the port db/persons/personQueries.ts
// implements): the page of people a filter selects, and many exact lookups at once.

import type { AuditInStatement } from './accessAudit.js';
import { personFilters } from './employment.js';
import type { FilterRule } from './fields.js';
import { type FilterName, type FilterValues, filterNames, type PersonFilter, type PersonPage } from './persons.js';

export interface PersonQueries {
  /** The page of people `filter` selects; with `audit`, its access audit entry is committed with it. */
  findPage(filter: PersonFilter, audit?: AuditInStatement): Promise<PersonPage>;
  /**
   * What each of `asks` finds (in the same order), with the one asOf of their snapshot:
   * each answer what findPage gives for that key alone with the ask's page.
   */
  findPagesByKey(filter: PersonsByKeyFilter, key: LookupKey, asks: readonly PageAsk[]): Promise<{ asOf: string; answers: PageAnswer[] }>;
}

export interface PersonsByKeyFilter {
  /** The credential's company set, joined through credential_companies past `inlineCompaniesMax` companies. */
  credentialId: string;
  authorizedCompanies: readonly string[];
  inlineCompaniesMax: number;
  /** Which external systems' ids to show; undefined shows all. */
  externalIdSystems?: readonly string[];
  /** The credential's Credential.readPosition: the asks are read where the data is at least that far. */
  readPosition?: bigint;
}

/** The filters a lookup can be keyed by (`lookup` in their rules): each picks out a handful of employments. */
export type LookupKey = { [Name in FilterName]: (typeof personFilters)[Name] extends { lookup: true } ? Name : never }[FilterName];

/** The key of a search that sets it and no other filter (one the rollups or name structures serve is not a lookup). */
export function lookupKeyOf(filter: FilterValues): LookupKey | undefined {
  const set = filterNames.filter((name) => filter[name] !== undefined);
  return set.length === 1 && (personFilters[set[0]!] as FilterRule).lookup ? (set[0] as LookupKey) : undefined;
}

/** One lookup: its key's value (a person id, an E.164 phone) and the page it asks for. */
export interface PageAsk {
  value: string;
  limit: number;
  offset: number;
}

/** An ask's page; the statement's asOf is the same for all. */
export type PageAnswer = Omit<PersonPage, 'asOf'>;
