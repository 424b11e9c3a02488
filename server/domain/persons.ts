// What the person operations mean: turning a search request into a filter over the
// credential's companies, and the page of people it selects. The people come back as the
// contract's JSON, built by the person query (server/db/personJson.ts), and are sent as
// they are.
import type { components } from '../../generated/types.full.js';
import { ApiError } from '../errors.js';
import type { Credential } from './credentials.js';
import { foldName } from './names.js';
import { toE164 } from './phone.js';

type Schemas = components['schemas'];
export type SearchRequest = Schemas['SearchPersonsRequest'];

export const DEFAULT_LIMIT = 50;

/** The filters of a search (the person query's other inputs are authorization and paging). */
export interface FilterValues {
  companyId?: string;
  /** Name fragments, folded (names.ts foldName), matched anywhere in the folded names. */
  firstName?: string;
  lastName?: string;
  /** E.164. */
  phone?: string;
  personId?: string;
  createdFrom?: string;
  createdBefore?: string;
}

/** Every filter's name (the data layer's rules for each: server/db/personFilters.ts). */
export const filterNames = [
  'companyId',
  'firstName',
  'lastName',
  'phone',
  'personId',
  'createdFrom',
  'createdBefore',
] as const satisfies readonly (keyof FilterValues)[];
// (And no filter left out of the list.)
const everyFilterNamed: Exclude<keyof FilterValues, (typeof filterNames)[number]> extends never ? true : never = true;
void everyFilterNamed;

export interface PersonFilter extends FilterValues {
  /** The credential whose companies bound what matches and shows... */
  credentialId: string;
  /** ...which are these; passed inline when there are at most `inlineCompaniesMax` (50 times that for a name fragment of 3+ characters). */
  authorizedCompanies: readonly string[];
  /** How many companies the credential does not hold (Credential.companiesOutside), when known: it picks the order a name search reads in. */
  companiesOutside?: number;
  inlineCompaniesMax: number;
  limit: number;
  offset: number;
  /** Which external systems' ids to show; undefined shows all. */
  externalIdSystems?: readonly string[];
  /** The credential's Credential.readPosition: the page is read where the data is at least that far. */
  readPosition?: bigint;
}

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
export function searchFilter(request: SearchRequest, credential: Credential, { defaultPhoneRegion, inlineCompaniesMax }: PersonQueryOptions): PersonFilter {
  let phone: string | undefined;
  if (request.phone !== undefined) {
    phone = toE164(request.phone, defaultPhoneRegion);
    if (!phone) throw new ApiError('invalid_request', [{ path: '/body/phone', message: 'is not a phone number' }]);
  }
  return {
    credentialId: credential.companySetId,
    authorizedCompanies: credential.companyList,
    companiesOutside: credential.companiesOutside,
    inlineCompaniesMax,
    companyId: request.companyId,
    firstName: request.firstName === undefined ? undefined : foldName(request.firstName),
    lastName: request.lastName === undefined ? undefined : foldName(request.lastName),
    phone,
    personId: request.personId,
    createdFrom: request.createdFrom,
    createdBefore: request.createdBefore,
    limit: request.limit ?? DEFAULT_LIMIT,
    offset: request.offset ?? 0,
    externalIdSystems: request.externalIdSystems,
    readPosition: credential.readPosition,
  };
}
