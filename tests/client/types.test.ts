// Type tests: what the compiler allows and infers for consumers. `npm run typecheck` (tsc over
// tests/) is what enforces them; vitest runs the file too, but no request is ever sent.
import type { ClientPathsWithMethod } from 'openapi-fetch';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createLookupDraftsClient,
  type GetPersonError,
  type GetPersonResponse,
  type LookupDraftsClient,
  type SearchEmployeesError,
  type SearchEmployeesRequest,
  type SearchEmployeesResponse,
  type SearchPersonsError,
  type SearchPersonsResponse,
} from '../../client/src/drafts.js';
import { createLookupClient, type ErrorCode, type HelloError, type HelloResponse, type LookupClient } from '../../client/src/index.js';

const neverFetch = async (): Promise<Response> => {
  throw new Error('type tests send no requests');
};
const client = createLookupClient({ baseUrl: 'https://lookup.internal.example', token: 't', fetch: neverFetch });
const drafts = createLookupDraftsClient({ baseUrl: 'http://localhost:3000', token: 't', fetch: neverFetch });
const helloCall = () => client.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId: 'acme-corp' } } });
const searchCall = () => drafts.POST('/v1/persons/search', { body: { lastName: 'dur' } });
const searchEmployeesCall = () => drafts.POST('/v1/employees/search', { body: { lastName: 'dur', createdFrom: '2026-01-01T00:00:00Z' } });
const getPersonCall = () => drafts.GET('/v1/persons/{personId}', { params: { path: { personId: '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11' } } });

describe('the default client', () => {
  it('has only the released operations: calling a draft does not compile', () => {
    expectTypeOf<ClientPathsWithMethod<LookupClient, 'get'>>().toEqualTypeOf<'/v1/companies/{companyId}/hello'>();
    expectTypeOf<ClientPathsWithMethod<LookupClient, 'post'>>().toBeNever();
    const notCompiled = () => {
      // @ts-expect-error Search persons is a draft: absent from the default client
      void client.POST('/v1/persons/search', { body: {} });
      // @ts-expect-error Search employees is a draft: absent from the default client
      void client.POST('/v1/employees/search', { body: {} });
      // @ts-expect-error Get person is a draft: absent from the default client
      void client.GET('/v1/persons/{personId}', { params: { path: { personId: '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11' } } });
      // @ts-expect-error companyId is a required path parameter
      void client.GET('/v1/companies/{companyId}/hello');
      // @ts-expect-error the base URL is required: there is no default environment
      createLookupClient({ token: 't' });
    };
    expectTypeOf(notCompiled).toBeFunction();
  });

  it('narrows a result to its data or its typed error', () => {
    type Result = Awaited<ReturnType<typeof helloCall>>;
    const use = (result: Result) => {
      if (result.error) {
        expectTypeOf(result.error).toEqualTypeOf<HelloError>();
        expectTypeOf(result.data).toEqualTypeOf<undefined>();
      } else {
        expectTypeOf(result.data).toEqualTypeOf<HelloResponse>();
        expectTypeOf(result.data.message).toBeString();
      }
    };
    expectTypeOf(use).toBeFunction();
  });

  it('types the error as the union of the codes hello can answer', () => {
    expectTypeOf<HelloError['error']>().toEqualTypeOf<
      'invalid_company_id' | 'invalid_request' | 'invalid_api_key' | 'forbidden' | 'rate_limited' | 'internal_error' | 'service_unavailable'
    >();
    expectTypeOf<HelloError['error']>().toExtend<ErrorCode>();
  });

  it('lets a consumer switch on the code exhaustively (a missing case does not compile)', () => {
    const explain = (error: HelloError): string => {
      switch (error.error) {
        case 'invalid_company_id':
        case 'invalid_request':
        case 'invalid_api_key':
        case 'forbidden':
        case 'internal_error':
        case 'service_unavailable':
          return error.error;
        case 'rate_limited':
          expectTypeOf(error.error).toEqualTypeOf<'rate_limited'>();
          return 'slow down';
        default:
          return error satisfies never;
      }
    };
    const incomplete = (error: HelloError): string => {
      switch (error.error) {
        case 'invalid_company_id':
        case 'invalid_api_key':
        case 'forbidden':
        case 'internal_error':
          return error.error;
        default:
          // @ts-expect-error invalid_request, rate_limited and service_unavailable are not handled
          return error satisfies never;
      }
    };
    expectTypeOf(explain).toBeFunction();
    expectTypeOf(incomplete).toBeFunction();
  });
});

describe('the drafts client (explicit opt-in)', () => {
  it('has every operation of the full contract', () => {
    expectTypeOf<ClientPathsWithMethod<LookupDraftsClient, 'get'>>().toEqualTypeOf<'/v1/companies/{companyId}/hello' | '/v1/persons/{personId}'>();
    expectTypeOf<ClientPathsWithMethod<LookupDraftsClient, 'post'>>().toEqualTypeOf<'/v1/persons/search' | '/v1/employees/search'>();
    expectTypeOf<NonNullable<Awaited<ReturnType<typeof searchEmployeesCall>>['data']>>().toEqualTypeOf<SearchEmployeesResponse>();
    expectTypeOf<SearchEmployeesResponse['employees'][number]['personId']>().toEqualTypeOf<string | null>();
    expectTypeOf<NonNullable<Awaited<ReturnType<typeof searchCall>>['data']>>().toEqualTypeOf<SearchPersonsResponse>();
    expectTypeOf<NonNullable<Awaited<ReturnType<typeof getPersonCall>>['data']>>().toEqualTypeOf<GetPersonResponse>();
  });

  it('types draft errors, invalid_request with its details', () => {
    expectTypeOf<SearchPersonsError['error']>().toEqualTypeOf<
      | 'invalid_request'
      | 'invalid_api_key'
      | 'forbidden'
      | 'not_found'
      | 'payload_too_large'
      | 'unsupported_media_type'
      | 'rate_limited'
      | 'internal_error'
      | 'service_unavailable'
    >();
    // Search employees answers what Search persons does.
    expectTypeOf<SearchEmployeesError['error']>().toEqualTypeOf<SearchPersonsError['error']>();
    // An unlinked record has no person: personId is not a filter here.
    expectTypeOf<'personId' extends keyof SearchEmployeesRequest ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<GetPersonError['error']>().toEqualTypeOf<
      'invalid_person_id' | 'invalid_request' | 'invalid_api_key' | 'forbidden' | 'not_found' | 'rate_limited' | 'internal_error' | 'service_unavailable'
    >();
    const details = (error: GetPersonError) => {
      if (error.error === 'invalid_request') {
        expectTypeOf(error.details).toEqualTypeOf<{ path: string; message: string }[] | undefined>();
      } else {
        // @ts-expect-error only invalid_request carries details
        void error.details;
      }
    };
    expectTypeOf(details).toBeFunction();
  });
});
