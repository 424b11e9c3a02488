import type { Middleware } from 'openapi-fetch';

/** A token, or a function returning the current one (called once per request, so it may refresh). */
export type TokenSource = string | (() => string | Promise<string>);

/**
 * Sends `Authorization: Bearer <token>` on every request. A call that sets its own
 * Authorization header keeps it (e.g. acting as another credential for one call).
 */
export function bearerAuth(token: TokenSource): Middleware {
  if (typeof token === 'string') assertToken(token);
  else if (typeof token !== 'function') throw new TypeError('token must be a string or a function returning one');
  return {
    async onRequest({ request }) {
      if (request.headers.has('Authorization')) return undefined;
      const value = typeof token === 'function' ? await token() : token;
      assertToken(value);
      request.headers.set('Authorization', `Bearer ${value}`);
      return request;
    },
  };
}

function assertToken(value: unknown): asserts value is string {
  // A header value cannot hold line breaks, and an empty token is always a 401: fail early.
  if (typeof value !== 'string' || value.trim() === '' || /[\r\n]/.test(value)) {
    throw new TypeError('token must be a non-empty string without line breaks');
  }
}
