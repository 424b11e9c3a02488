// @lookup/client/react-query: TanStack Query v5 options for each operation, built on the
// client. `useQuery(lookup.getPerson(id))`, `useInfiniteQuery(lookup.searchPersonsInfinite(body))`.
//
// - Query keys are data: the method, the path template and the call's inputs, as
//   openapi-react-query makes them (`['get', '/v1/persons/{personId}', { params }]`), so a
//   prefix invalidates a whole operation. Never the token: it lives in the client.
// - Failures throw LookupApiError (status, code, details, retryAfter, requestId).
// - One layer retries: the client (429/503 after Retry-After, network errors of reads).
//   TanStack's own retry is off here, or one 503 would cost 3 x 4 requests.
// docs/decisions/0024-consumer-sdk.md says why these choices.
import { type InfiniteData, infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { operations } from '../../generated/types.full.js';
import type { LookupDraftsClient } from './drafts.js';
import type { LookupApiError } from './errors.js';
import type { LookupClient } from './index.js';
import { type PageFilters, type SearchPath, searchPage } from './paginate.js';
import type { DataOf, ErrorOf, ResultOf } from './typed-client.js';
import { unwrap } from './unwrap.js';

type Body<Operation extends keyof operations> = operations[Operation] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type Query<Operation extends keyof operations> = operations[Operation]['parameters']['query'];

/** The error a query of `Operation` fails with: its codes narrow `code`. */
export type QueryError<Operation extends keyof operations> = LookupApiError<ErrorOf<operations[Operation]>>;

/** TanStack's retry is off: the client has retried what is worth retrying before a query fails. */
const retry = false;

/** Options for one call: its key, a query function that unwraps it (with TanStack's signal), no second retry layer. */
function callOptions<Operation extends keyof operations, const Key extends readonly unknown[]>(
  queryKey: Key,
  call: (signal: AbortSignal) => Promise<ResultOf<operations[Operation]>>,
) {
  return queryOptions<DataOf<operations[Operation]>, QueryError<Operation>, DataOf<operations[Operation]>, Key>({
    queryKey,
    queryFn: ({ signal }) => unwrap(call(signal)),
    retry,
  });
}

type SearchOperation<Path extends SearchPath> = Path extends '/v1/persons/search' ? 'searchPersons' : 'searchEmployees';

/**
 * Infinite options for a search: the first page without a cursor, each next one with the
 * cursor the page before answered (`pagination.next`), none after a null. The key is the
 * search's own with 'infinite' after it: TanStack keeps pages, not a page, under it.
 */
function pagesOptions<Path extends SearchPath>(client: LookupDraftsClient, path: Path, filters: PageFilters<Path>) {
  type Page = DataOf<operations[SearchOperation<Path>]>;
  const queryKey = ['post', path, { body: filters }, 'infinite'] as const;
  return infiniteQueryOptions<Page, QueryError<SearchOperation<Path>>, InfiniteData<Page, string | undefined>, typeof queryKey, string | undefined>({
    queryKey,
    queryFn: ({ pageParam, signal }) => searchPage(client, path, filters, pageParam, signal) as Promise<Page>,
    initialPageParam: undefined,
    // A cursor answered back for itself (a static mock does) would be read forever: stop there.
    getNextPageParam: (last, _pages, cursor) => (last.pagination.next === cursor ? null : last.pagination.next),
    retry,
  });
}

/** Hello only: what a client of the released operations can ask. */
function releasedQueries(client: LookupClient) {
  return {
    /** Hello for `companyId`: checks a credential against a company. */
    hello: (companyId: string) => {
      const init = { params: { path: { companyId } } };
      return callOptions<'hello', readonly ['get', '/v1/companies/{companyId}/hello', typeof init]>(
        ['get', '/v1/companies/{companyId}/hello', init],
        (signal) => client.GET('/v1/companies/{companyId}/hello', { ...init, signal }),
      );
    },
  };
}

function draftQueries(client: LookupDraftsClient) {
  return {
    ...releasedQueries(client),
    /** One person with every employment the credential may see. `query.externalIdSystems` selects the external ids shown. */
    getPerson: (personId: string, query?: Query<'getPerson'>) => {
      const init = { params: query ? { path: { personId }, query } : { path: { personId } } };
      return callOptions<'getPerson', readonly ['get', '/v1/persons/{personId}', typeof init]>(['get', '/v1/persons/{personId}', init], (signal) =>
        client.GET('/v1/persons/{personId}', { ...init, signal }),
      );
    },
    /** One page of people; for a list that grows page by page, `searchPersonsInfinite`. */
    searchPersons: (body: Body<'searchPersons'>) => {
      const init = { body };
      return callOptions<'searchPersons', readonly ['post', '/v1/persons/search', typeof init]>(['post', '/v1/persons/search', init], (signal) =>
        client.POST('/v1/persons/search', { ...init, signal }),
      );
    },
    /** People page by page, by cursor: `useInfiniteQuery`, `fetchNextPage`, `hasNextPage`. */
    searchPersonsInfinite: (filters: PageFilters<'/v1/persons/search'>) => pagesOptions(client, '/v1/persons/search', filters),
    /** Unlinked employment records page by page, by cursor. */
    searchEmployeesInfinite: (filters: PageFilters<'/v1/employees/search'>) => pagesOptions(client, '/v1/employees/search', filters),
    /** One page of unlinked employment records. */
    searchEmployees: (body: Body<'searchEmployees'>) => {
      const init = { body };
      return callOptions<'searchEmployees', readonly ['post', '/v1/employees/search', typeof init]>(['post', '/v1/employees/search', init], (signal) =>
        client.POST('/v1/employees/search', { ...init, signal }),
      );
    },
  };
}

export type LookupQueries = ReturnType<typeof releasedQueries>;
export type LookupDraftQueries = ReturnType<typeof draftQueries>;

/**
 * Query options for every operation the client has: a drafts client gets them all, a client
 * of the released operations gets `hello`.
 *
 * ```ts
 * const lookup = createLookupQueries(createLookupDraftsClient({ baseUrl, token }));
 * const person = useQuery(lookup.getPerson(personId));
 * ```
 */
export function createLookupQueries(client: LookupDraftsClient): LookupDraftQueries;
export function createLookupQueries(client: LookupClient): LookupQueries;
export function createLookupQueries(client: LookupClient | LookupDraftsClient): LookupQueries | LookupDraftQueries {
  return draftQueries(client as LookupDraftsClient);
}

export { LookupApiError } from './errors.js';
