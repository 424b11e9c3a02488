// @lookup/client: the typed client for the public contract. Draft operations do not
// exist here; calling one is a compile error (see `@lookup/client/drafts` to opt in).
import type { Client, FetchResponse } from 'openapi-fetch';
import type { components, operations, paths } from '../../generated/types.public.js';
import { type ClientOptions, createConfiguredClient } from './create-client.js';

export type LookupClient = Client<paths, 'application/json'>;
export type LookupClientOptions = ClientOptions;

/**
 * A client for the released operations.
 *
 * ```ts
 * const lookup = createLookupClient({ baseUrl: process.env.LOOKUP_BASE_URL!, token: process.env.LOOKUP_TOKEN! });
 * const { data, error } = await lookup.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId: 'acme-corp' } } });
 * ```
 */
export function createLookupClient(options: LookupClientOptions): LookupClient {
  return createConfiguredClient<paths>(options);
}

/** The `error` of a failed call to an operation: a union that narrows on its `error` code. */
// biome-ignore lint/complexity/noBannedTypes: `{}` is openapi-fetch's own type for "no request options"
export type ErrorOf<Operation extends Record<string | number, any>> = NonNullable<FetchResponse<Operation, {}, 'application/json'>['error']>;

export type HelloResponse = components['schemas']['HelloResponse'];
export type HelloError = ErrorOf<operations['hello']>;
export type ErrorCode = components['schemas']['ErrorCode'];

export type { BaseUrl } from './base-url.js';
export type { TokenSource } from './middleware/bearer-auth.js';
export type { Fetch, RetryOptions } from './resilient-fetch.js';
export { clientVersion } from './version.js';
export type { components, operations, paths };
