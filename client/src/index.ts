// @lookup/client: the typed client for the public contract. Draft operations do not
// exist here; calling one is a compile error (see `@lookup/client/drafts` to opt in).
import type { components, operations, paths } from '../../generated/types.public.js';
import { type ClientOptions, createConfiguredClient } from './create-client.js';
import { publicCodes } from './public-codes.js';
import type { ErrorOf, TypedClient } from './typed-client.js';

export type LookupClient = TypedClient<paths>;
export type LookupClientOptions = ClientOptions;

/**
 * A client for the released operations.
 *
 * ```ts
 * const lookup = createLookupClient({ baseUrl: process.env.LOOKUP_BASE_URL!, token: process.env.LOOKUP_TOKEN! });
 * const { data, error } = await lookup.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId: 'acme-corp' } } });
 * const { message } = await unwrap(lookup.GET(...)); // or: the data, or a thrown LookupApiError
 * ```
 */
export function createLookupClient(options: LookupClientOptions): LookupClient {
  return createConfiguredClient<paths>(options, { codes: publicCodes, readPosts: [] });
}

export type HelloResponse = components['schemas']['HelloResponse'];
export type HelloError = ErrorOf<operations['hello']>;

export type { BaseUrl } from './base-url.js';
export { type ErrorBody, LookupApiError, type UnexpectedCode, type UnexpectedResponse } from './errors.js';
export type { TokenSource } from './middleware/bearer-auth.js';
export { type ErrorCode, errorCodes, type ServiceCodeOf } from './public-codes.js';
export type { Fetch, RetryOptions } from './resilient-fetch.js';
export type { DataOf, ErrorOf, ResultOf } from './typed-client.js';
export { unwrap } from './unwrap.js';
export { clientVersion } from './version.js';
export type { components, operations, paths };
