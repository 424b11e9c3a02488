// What the bench asks: each Search persons filter kind and Get person, with values drawn
// from the data (dataset/samples.ts), as HTTP requests for the service and as the exact
// findPersons filters the service derives from them (domain/persons.ts searchFilter, for
// the stored credential), for the direct-SQL reference.
import type { Config } from '../server/config.js';
import type { Credential } from '../server/domain/credentials.js';
import type { PersonFilter } from '../server/domain/persons.js';
import { type SearchRequest, searchFilter } from '../server/domain/persons.js';
import type { FilterSamples } from './dataset/samples.js';

export const personKinds = {
  getPerson: 'Get person',
  nameSubstring: 'last name substring (3+ chars)',
  firstLastName: 'first + last name',
  phone: 'phone',
  companyName: 'company + last name',
  personId: 'personId',
  createdRange: 'created range (1 week)',
  offset10k: 'offset 10,000',
} as const;

export type PersonKind = keyof typeof personKinds;

/**
 * The kinds measured with the access audit on and off (--no-audit-comparison skips it):
 * Get person (one id per entry), a name search and a week's listing (full pages, the
 * largest entries).
 */
export const AUDITED_KINDS: readonly PersonKind[] = ['getPerson', 'nameSubstring', 'createdRange'];

export interface HttpRequestSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface PersonWorkload {
  http: HttpRequestSpec[];
  direct: PersonFilter[];
}

/** "+14155550132" → "(415) 555-0132": phones arrive as people type them, the service normalizes. */
export const nationalFormat = (e164: string) => (/^\+1\d{10}$/.test(e164) ? `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}` : e164);

export function searchBodies(kind: Exclude<PersonKind, 'getPerson'>, samples: FilterSamples): SearchRequest[] {
  switch (kind) {
    case 'nameSubstring':
      return samples.lastNameSubstrings.map((lastName) => ({ lastName }));
    case 'firstLastName':
      return samples.firstLastPairs.map(({ firstName, lastName }) => ({ firstName, lastName }));
    case 'phone':
      return samples.phones.map((phone) => ({ phone: nationalFormat(phone) }));
    case 'companyName':
      return samples.companyLastNames.map(({ companyId, lastName }) => ({ companyId, lastName }));
    case 'personId':
      return samples.personIds.map((personId) => ({ personId }));
    case 'createdRange':
      return samples.createdRanges.map((range) => ({ ...range }));
    case 'offset10k':
      return [{ offset: 10_000 }];
  }
}

/** `credential` as the service holds it (db/stores/credentials.ts findActiveCredential), `config` as the service loads it. */
export function personWorkload(kind: PersonKind, samples: FilterSamples, credential: Credential, config: Config): PersonWorkload {
  if (kind === 'getPerson') {
    return {
      http: samples.personIds.map((id) => ({ method: 'GET', path: `/v1/persons/${id}` })),
      // Get person runs the search query on one id with a page of one (operations/getPerson.ts).
      direct: samples.personIds.map((personId) => searchFilter({ personId, limit: 1, offset: 0 }, credential, config)),
    };
  }
  return searchWorkload(searchBodies(kind, samples), credential, config);
}

/** The worst case: the most common name fragment, for a credential of every company. */
export function worstCaseWorkload(samples: FilterSamples, credential: Credential, config: Config): PersonWorkload & { substring: string; share: number } {
  const common = samples.commonSubstrings[0];
  if (!common) throw new Error('no common substring in the samples');
  return { ...searchWorkload([{ lastName: common.substring }], credential, config), ...common };
}

function searchWorkload(bodies: SearchRequest[], credential: Credential, config: Config): PersonWorkload {
  return {
    http: bodies.map((body) => ({ method: 'POST', path: '/v1/persons/search', body: JSON.stringify(body) })),
    direct: bodies.map((body) => searchFilter(body, credential, config)),
  };
}
