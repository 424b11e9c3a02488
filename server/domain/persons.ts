// What the person operations mean: turning a search request into a filter over the
// credential's companies. The people come back as the contract's JSON, built by the
// person query (server/db/personJson.ts), and are sent as they are.
import type { components } from '../../generated/types.full.js';
import type { Credential } from '../db/credentials.js';
import type { PersonFilter } from '../db/persons.js';
import { ApiError } from '../errors.js';
import { foldName } from './names.js';
import { toE164 } from './phone.js';

type Schemas = components['schemas'];
export type SearchRequest = Schemas['SearchPersonsRequest'];

export const DEFAULT_LIMIT = 50;

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
  };
}
