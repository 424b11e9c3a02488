// Every row of a search, page after page by cursor: `pagination.next` sent back as `cursor`
// with the same filters, until it is null. A cursor continues after the last row seen in the
// search's order, so rows added or removed between pages neither skip nor repeat anyone who
// was there throughout (an offset would shift them).
import type { components, operations, paths } from '../../generated/types.full.js';
import type { ResultOf, TypedClient } from './typed-client.js';
import { unwrap } from './unwrap.js';

/** The searches that page by cursor, and the operation behind each. */
interface Searches {
  '/v1/persons/search': 'searchPersons';
  '/v1/employees/search': 'searchEmployees';
}
export type SearchPath = keyof Searches;
type RequestOf<Path extends SearchPath> = operations[Searches[Path]]['requestBody']['content']['application/json'];
type ResponseOf<Path extends SearchPath> = operations[Searches[Path]]['responses'][200]['content']['application/json'];

/** A search's filters and page size: the cursor (and an offset, which a cursor refuses) are the pager's. */
export type PageFilters<Path extends SearchPath> = Omit<RequestOf<Path>, 'cursor' | 'offset'>;
/** What a search lists: people, or employment records. */
export type RowOf<Path extends SearchPath> = Path extends '/v1/persons/search' ? components['schemas']['Person'] : components['schemas']['Employee'];

/** One page of the search: the filters with the cursor of the page before (none for the first). */
export function searchPage<Path extends SearchPath>(
  client: TypedClient<paths>,
  path: Path,
  filters: PageFilters<Path>,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<ResponseOf<Path>> {
  // One signature for both searches: TypeScript cannot follow a body's type through a generic path.
  const post = client.POST as (path: SearchPath, init: { body: object; signal?: AbortSignal }) => Promise<ResultOf<operations[Searches[Path]]>>;
  return unwrap(post(path, { body: cursor === undefined ? filters : { ...filters, cursor }, signal })) as Promise<ResponseOf<Path>>;
}

/**
 * Every person (or employment record) a search finds, page by page:
 *
 * ```ts
 * for await (const person of paginate(drafts, '/v1/persons/search', { companyId: 'acme-corp', limit: 100 })) { ... }
 * ```
 *
 * A failure throws a LookupApiError; `signal` stops the iteration.
 */
export async function* paginate<Path extends SearchPath>(
  client: TypedClient<paths>,
  path: Path,
  filters: PageFilters<Path>,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<RowOf<Path>, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await searchPage(client, path, filters, cursor, options.signal);
    yield* ('persons' in page ? page.persons : page.employees) as RowOf<Path>[];
    const next = page.pagination.next;
    if (next === null) return;
    // A service (or a mock) that answers the cursor it was sent would be read forever.
    if (next === cursor) throw new Error(`paginate: ${path} answered the cursor it was sent; stopping rather than reading the same page again`);
    cursor = next;
  }
}
