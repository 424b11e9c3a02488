// Type tests: what the compiler allows and infers for consumers. `npm run typecheck` (tsc over
// tests/) is what enforces them; vitest runs the file too, but no request is ever sent.
import { QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type Address,
  type Contact,
  type Coverage,
  type CoverageStatus,
  type coverageStatuses,
  createLookupDraftsClient,
  type Demographics,
  type Employee,
  type FieldGroup,
  type ErrorCode as FullErrorCode,
  type fieldGroups,
  type errorCodes as fullErrorCodes,
  type GetPersonError,
  type GetPersonResponse,
  type Invitation,
  type InvitationStatus,
  type invitationStatuses,
  LookupApiError as LookupApiErrorFromDrafts,
  type LookupDraftsClient,
  type Membership,
  type MembershipStatus,
  type membershipStatuses,
  type Pagination,
  type Participation,
  type ParticipationDecision,
  type Person,
  paginate,
  type participationDecisions,
  type SearchEmployeesError,
  type SearchEmployeesRequest,
  type SearchEmployeesResponse,
  type SearchPersonsError,
  type SearchPersonsResponse,
  unwrap as unwrapFromDrafts,
  type WithheldFields,
} from '../../client/src/drafts.js';
import {
  createLookupClient,
  type ErrorCode,
  errorCodes,
  type HelloError,
  type HelloResponse,
  LookupApiError,
  type LookupClient,
  type ServiceCodeOf,
  type UnexpectedResponse,
  unwrap,
} from '../../client/src/index.js';
import { createLookupQueries, type QueryError } from '../../client/src/react-query.js';
import type { components, operations } from '../../generated/types.full.js';

const neverFetch = async (): Promise<Response> => {
  throw new Error('type tests send no requests');
};
const client = createLookupClient({ baseUrl: 'https://lookup.internal.example', token: 't', fetch: neverFetch });
const drafts = createLookupDraftsClient({ baseUrl: 'http://localhost:3000', token: 't', fetch: neverFetch });
const helloCall = () => client.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId: 'acme-corp' } } });
const searchCall = () => drafts.POST('/v1/persons/search', { body: { lastName: 'dur' } });
const searchEmployeesCall = () => drafts.POST('/v1/employees/search', { body: { lastName: 'dur', createdFrom: '2026-01-01T00:00:00Z' } });
const getPersonCall = () => drafts.GET('/v1/persons/{personId}', { params: { path: { personId: '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11' } } });
/** The paths a client's method takes. */
type PathsOf<Method extends (path: never, ...rest: never[]) => unknown> = Parameters<Method>[0];

describe('the default client', () => {
  it('has only the released operations: calling a draft does not compile', () => {
    expectTypeOf<PathsOf<LookupClient['GET']>>().toEqualTypeOf<'/v1/companies/{companyId}/hello'>();
    expectTypeOf<PathsOf<LookupClient['POST']>>().toBeNever();
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

  it('types the error as the codes hello can answer, and unexpected_response for an answer that is not the contract’s', () => {
    type HelloCodes = 'invalid_company_id' | 'invalid_request' | 'invalid_api_key' | 'forbidden' | 'rate_limited' | 'internal_error' | 'service_unavailable';
    expectTypeOf<ServiceCodeOf<operations['hello']>>().toEqualTypeOf<HelloCodes>();
    expectTypeOf<HelloError['error']>().toEqualTypeOf<HelloCodes | 'unexpected_response'>();
    expectTypeOf<Extract<HelloError, { error: 'unexpected_response' }>>().toEqualTypeOf<UnexpectedResponse>();
    expectTypeOf<UnexpectedResponse['body']>().toBeUnknown();
    expectTypeOf<ServiceCodeOf<operations['hello']>>().toExtend<ErrorCode>();
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
        case 'unexpected_response':
          expectTypeOf(error.body).toBeUnknown();
          return 'the service did not answer (a proxy did)';
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
        case 'rate_limited':
        case 'invalid_request':
        case 'service_unavailable':
          return error.error;
        default:
          // @ts-expect-error unexpected_response (an HTML 502 from a proxy) is not handled
          return error satisfies never;
      }
    };
    expectTypeOf(explain).toBeFunction();
    expectTypeOf(incomplete).toBeFunction();
  });

  it('unwraps a call to its data; LookupApiError carries the status, code, request id and Retry-After', () => {
    expectTypeOf(unwrap(helloCall())).resolves.toEqualTypeOf<HelloResponse>();
    expectTypeOf<LookupApiError>().toExtend<Error>();
    expectTypeOf<LookupApiError['status']>().toBeNumber();
    expectTypeOf<LookupApiError['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<LookupApiError['retryAfter']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<LookupApiError['response']>().toEqualTypeOf<Response>();
    expectTypeOf<LookupApiError<HelloError>['code']>().toEqualTypeOf<HelloError['error']>();
    // Caught as unknown and narrowed by instanceof: what every failure has.
    const caught = (error: unknown) => {
      if (error instanceof LookupApiError) {
        expectTypeOf(error.code).toBeString();
        expectTypeOf(error.details).toEqualTypeOf<readonly { path: string; message: string }[] | undefined>();
      }
    };
    expectTypeOf(caught).toBeFunction();
    // The drafts entry hands out the same class: one instanceof check for both.
    expectTypeOf(LookupApiErrorFromDrafts).toEqualTypeOf(LookupApiError);
    expectTypeOf(unwrapFromDrafts).toEqualTypeOf(unwrap);
  });

  it('has every error code as a value', () => {
    expectTypeOf(errorCodes).toEqualTypeOf<readonly ErrorCode[]>();
  });
});

describe('the drafts client (explicit opt-in)', () => {
  it('has every operation of the full contract', () => {
    expectTypeOf<PathsOf<LookupDraftsClient['GET']>>().toEqualTypeOf<
      '/v1/companies/{companyId}/hello' | '/v1/persons/{personId}' | '/v1/companies/{companyId}/changes'
    >();
    expectTypeOf<PathsOf<LookupDraftsClient['POST']>>().toEqualTypeOf<'/v1/persons/search' | '/v1/employees/search'>();
    expectTypeOf<NonNullable<Awaited<ReturnType<typeof searchEmployeesCall>>['data']>>().toEqualTypeOf<SearchEmployeesResponse>();
    expectTypeOf<SearchEmployeesResponse['employees'][number]['personId']>().toEqualTypeOf<string | null>();
    expectTypeOf<NonNullable<Awaited<ReturnType<typeof searchCall>>['data']>>().toEqualTypeOf<SearchPersonsResponse>();
    expectTypeOf<NonNullable<Awaited<ReturnType<typeof getPersonCall>>['data']>>().toEqualTypeOf<GetPersonResponse>();
  });

  it('refuses a misspelt key anywhere in a call, and takes every correct one', () => {
    const notCompiled = () => {
      // @ts-expect-error lastname: the filter is lastName (the server would answer 400)
      void drafts.POST('/v1/persons/search', { body: { lastname: 'x' } });
      // @ts-expect-error personId is not a filter of Search employees
      void drafts.POST('/v1/employees/search', { body: { personId: '3f0c2a7e-9b1d-4e55-8a2f-6c1d7e9b0a11' } });
      // @ts-expect-error bdy: the option is body
      void drafts.POST('/v1/persons/search', { bdy: { lastName: 'x' } });
      // @ts-expect-error externalIdSystem: the query parameter is externalIdSystems
      void drafts.GET('/v1/persons/{personId}', { params: { path: { personId: 'p' }, query: { externalIdSystem: ['hris'] } } });
      // @ts-expect-error an unknown path parameter
      void client.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId: 'acme-corp', company: 'x' } } });
      // @ts-expect-error limit is a number
      void drafts.POST('/v1/persons/search', { body: { limit: '10' } });
      // @ts-expect-error the client speaks JSON: parseAs would make data a string its type does not say
      void drafts.POST('/v1/persons/search', { body: {}, parseAs: 'text' });
    };
    const compiled = () => {
      const controller = new AbortController();
      void drafts.POST('/v1/persons/search', {
        body: { companyId: 'acme-corp', firstName: 'émi', lastName: 'dur', phone: '+1 415 555 0132', externalIdSystems: ['hris'], limit: 10 },
        signal: controller.signal,
        headers: { 'X-Request-Id': 'my-trace-1' },
      });
      void drafts.POST('/v1/persons/search', { body: {} });
      void drafts.GET('/v1/persons/{personId}', { params: { path: { personId: 'p' }, query: { externalIdSystems: ['hris', 'payroll'] } } });
      void drafts.GET('/v1/persons/{personId}', { params: { path: { personId: 'p' } } });
      void client.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId: 'acme-corp' } }, signal: controller.signal });
    };
    expectTypeOf(notCompiled).toBeFunction();
    expectTypeOf(compiled).toBeFunction();
  });

  it('types draft errors, invalid_request with its details', () => {
    expectTypeOf<ServiceCodeOf<operations['searchPersons']>>().toEqualTypeOf<
      | 'invalid_request'
      | 'invalid_api_key'
      | 'forbidden'
      | 'draft_unavailable'
      | 'payload_too_large'
      | 'unsupported_media_type'
      | 'rate_limited'
      | 'internal_error'
      | 'service_unavailable'
    >();
    expectTypeOf<SearchPersonsError['error']>().toEqualTypeOf<ServiceCodeOf<operations['searchPersons']> | 'unexpected_response'>();
    // Search employees answers what Search persons does.
    expectTypeOf<SearchEmployeesError['error']>().toEqualTypeOf<SearchPersonsError['error']>();
    // An unlinked record has no person: personId is not a filter here.
    expectTypeOf<'personId' extends keyof SearchEmployeesRequest ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<ServiceCodeOf<operations['getPerson']>>().toEqualTypeOf<
      | 'invalid_person_id'
      | 'invalid_request'
      | 'invalid_api_key'
      | 'forbidden'
      | 'not_found'
      | 'draft_unavailable'
      | 'rate_limited'
      | 'internal_error'
      | 'service_unavailable'
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

  it('exports every type a screen needs, and the states as values equal to their types', () => {
    type Schemas = components['schemas'];
    expectTypeOf<Person>().toEqualTypeOf<Schemas['Person']>();
    expectTypeOf<Employee>().toEqualTypeOf<Person['employments'][number]>();
    expectTypeOf<Pagination>().toEqualTypeOf<SearchPersonsResponse['pagination']>();
    expectTypeOf<Demographics>().toEqualTypeOf<Employee['demographics']>();
    expectTypeOf<Contact>().toEqualTypeOf<Employee['contact']>();
    expectTypeOf<Address>().toEqualTypeOf<NonNullable<Contact['address']>>();
    expectTypeOf<Membership>().toEqualTypeOf<NonNullable<Employee['membership']>>();
    expectTypeOf<Invitation>().toEqualTypeOf<NonNullable<Membership['invitation']>>();
    expectTypeOf<Participation>().toEqualTypeOf<NonNullable<Employee['participation']>>();
    expectTypeOf<Coverage>().toEqualTypeOf<NonNullable<Employee['coverage']>>();
    expectTypeOf<(typeof membershipStatuses)[number]>().toEqualTypeOf<MembershipStatus>();
    expectTypeOf<MembershipStatus>().toEqualTypeOf<'not_invited' | 'invited_pending' | 'invited_expired' | 'active' | 'revoked_access'>();
    expectTypeOf<(typeof coverageStatuses)[number]>().toEqualTypeOf<CoverageStatus>();
    expectTypeOf<CoverageStatus>().toEqualTypeOf<'enrolled' | 'enrolled_not_paying' | 'awaiting_coverage' | 'waived' | 'terminated'>();
    expectTypeOf<(typeof invitationStatuses)[number]>().toEqualTypeOf<InvitationStatus>();
    expectTypeOf<(typeof participationDecisions)[number]>().toEqualTypeOf<ParticipationDecision>();
    expectTypeOf<Participation['decision']>().toEqualTypeOf<ParticipationDecision | null>();
    expectTypeOf<(typeof fullErrorCodes)[number]>().toEqualTypeOf<FullErrorCode>();
    expectTypeOf<(typeof fieldGroups)[number]>().toEqualTypeOf<FieldGroup>();
    expectTypeOf<SearchPersonsResponse['withheld']>().toEqualTypeOf<WithheldFields | undefined>();
    expectTypeOf<GetPersonResponse['withheld']>().toEqualTypeOf<WithheldFields | undefined>();
    expectTypeOf<WithheldFields>().toEqualTypeOf<FieldGroup[]>();
    // A withheld group's key is absent; a value recorded as empty is null: both are in the type.
    expectTypeOf<Employee['coverage']>().toEqualTypeOf<Coverage | null | undefined>();
    expectTypeOf<Employee['demographics']['gender']>().toEqualTypeOf<string | null | undefined>();
    const forbidden = (error: SearchPersonsError) => {
      if (error.error === 'forbidden' && error.details) expectTypeOf(error.details[0]!.fieldGroup).toEqualTypeOf<FieldGroup>();
    };
    expectTypeOf(forbidden).toBeFunction();
    expectTypeOf<ErrorCode>().toExtend<FullErrorCode>();
    // An exhaustive label map: a state the contract adds is a compile error here.
    const labels = {
      not_invited: 'Not invited',
      invited_pending: 'Invited',
      invited_expired: 'Invitation expired',
      active: 'Active',
      revoked_access: 'Revoked',
    } satisfies Record<MembershipStatus, string>;
    expectTypeOf(labels).toBeObject();
  });
});

describe('paging and the query layer', () => {
  it('paginate yields the rows of its search; the cursor and the offset are its own', () => {
    expectTypeOf(paginate(drafts, '/v1/persons/search', { lastName: 'dur', limit: 100 })).toEqualTypeOf<AsyncGenerator<Person, void, undefined>>();
    expectTypeOf(paginate(drafts, '/v1/employees/search', { companyId: 'acme-corp' })).toEqualTypeOf<AsyncGenerator<Employee, void, undefined>>();
    expectTypeOf<Pagination['next']>().toEqualTypeOf<string | null>();
    const notCompiled = () => {
      // @ts-expect-error the pager sends the cursor
      void paginate(drafts, '/v1/persons/search', { cursor: 'abc' });
      // @ts-expect-error a cursor refuses an offset: the pager never sends one
      void paginate(drafts, '/v1/persons/search', { offset: 50 });
      // @ts-expect-error lastname: the filter is lastName
      void paginate(drafts, '/v1/persons/search', { lastname: 'dur' });
      // @ts-expect-error Get person is no search
      void paginate(drafts, '/v1/persons/{personId}', {});
      // @ts-expect-error paging needs the drafts client: the default one has no search
      void paginate(client, '/v1/persons/search', {});
    };
    expectTypeOf(notCompiled).toBeFunction();
  });

  it('gives TanStack options typed with the data, the LookupApiError and the key', () => {
    const queries = createLookupQueries(drafts);
    const person = queries.getPerson('p');
    expectTypeOf(person.queryKey).toExtend<readonly ['get', '/v1/persons/{personId}', unknown]>();
    expectTypeOf(new QueryClient().getQueryData(person.queryKey)).toEqualTypeOf<GetPersonResponse | undefined>();
    const Component = () => {
      const { data, error } = useQuery(queries.searchPersons({ lastName: 'dur' }));
      expectTypeOf(data).toEqualTypeOf<SearchPersonsResponse | undefined>();
      expectTypeOf(error).toEqualTypeOf<QueryError<'searchPersons'> | null>();
      if (error) expectTypeOf(error.code).toEqualTypeOf<SearchPersonsError['error']>();
      const pages = useInfiniteQuery(queries.searchPersonsInfinite({ lastName: 'dur', limit: 20 }));
      expectTypeOf(pages.data?.pages).toEqualTypeOf<SearchPersonsResponse[] | undefined>();
      expectTypeOf(pages.error).toEqualTypeOf<QueryError<'searchPersons'> | null>();
      const unlinked = useInfiniteQuery(queries.searchEmployeesInfinite({}));
      expectTypeOf(unlinked.data?.pages).toEqualTypeOf<SearchEmployeesResponse[] | undefined>();
    };
    expectTypeOf(Component).toBeFunction();
    const notCompiled = () => {
      // @ts-expect-error the infinite options page by cursor: no offset
      void queries.searchPersonsInfinite({ offset: 10 });
      // @ts-expect-error lastname: the filter is lastName
      void queries.searchPersons({ lastname: 'dur' });
      // @ts-expect-error a client of the released operations gets hello alone
      void createLookupQueries(client).getPerson('p');
    };
    expectTypeOf(notCompiled).toBeFunction();
    expectTypeOf(createLookupQueries(client).hello).toEqualTypeOf(queries.hello);
  });
});
