import { errorBodyOf, LookupApiError } from './errors.js';

/**
 * A call's data, or a thrown LookupApiError:
 *
 * ```ts
 * const { message } = await unwrap(lookup.GET('/v1/companies/{companyId}/hello', { params: { path: { companyId } } }));
 * ```
 *
 * It rejects, as the call itself does, when there was no answer at all (network error,
 * timeout, abort).
 */
export async function unwrap<Result extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<Result> | Result,
): Promise<NonNullable<Result['data']>> {
  const { data, error, response } = await call;
  if (!response.ok) throw new LookupApiError(errorBodyOf(error), response);
  return data as NonNullable<Result['data']>;
}
