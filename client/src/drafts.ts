// @lookup/client/drafts: the explicit opt-in to the full contract, draft operations
// included, for teams that test drafts in development. Drafts are unavailable in sandbox
// and production (they answer 404 not_found there): point it at a development server or the mock.
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from '../../generated/types.full.js';
import { type ClientOptions, createConfiguredClient } from './create-client.js';
import type { ErrorOf } from './index.js';

export type LookupDraftsClient = Client<paths, 'application/json'>;
export type LookupDraftsClientOptions = ClientOptions;

/** A client for the whole contract, drafts included. Point it at a development server or the mock. */
export function createLookupDraftsClient(options: LookupDraftsClientOptions): LookupDraftsClient {
  return createConfiguredClient<paths>(options);
}

type Schemas = components['schemas'];
export type Person = Schemas['Person'];
export type Employee = Schemas['Employee'];
export type SearchPersonsRequest = Schemas['SearchPersonsRequest'];
export type SearchPersonsResponse = Schemas['SearchPersonsResponse'];
export type GetPersonResponse = Schemas['GetPersonResponse'];
export type SearchEmployeesRequest = Schemas['SearchEmployeesRequest'];
export type SearchEmployeesResponse = Schemas['SearchEmployeesResponse'];
export type SearchPersonsError = ErrorOf<operations['searchPersons']>;
export type GetPersonError = ErrorOf<operations['getPerson']>;
export type SearchEmployeesError = ErrorOf<operations['searchEmployees']>;
export type HelloError = ErrorOf<operations['hello']>;

export type { BaseUrl, ErrorCode, ErrorOf, Fetch, HelloResponse, RetryOptions, TokenSource } from './index.js';
export type { components, operations, paths };
