// CORS for browser apps, on the origins an operator lists in CORS_ORIGINS (none by
// default; docs/decisions/0015-browsers-and-cors.md says when a browser should hold a token at all), and in
// development on any page this machine serves (http://localhost:<port>, 127.0.0.1, [::1]):
// a frontend's dev server works without configuration (docs/decisions/0025-local-development-backend.md).
// Tokens travel in the Authorization header, never in cookies, so no credentials mode is needed.
//   - A preflight (OPTIONS with Access-Control-Request-Method) needs no token and is
//     answered 204; from an allowed origin it allows the path's methods and the
//     Authorization, Content-Type and X-Request-Id request headers, cached for 10 minutes.
//   - Every other answer to an allowed origin allows it and exposes Retry-After, RateLimit-*,
//     X-Request-Id and WWW-Authenticate to its scripts (errors included, so an app can
//     honour Retry-After).
// An origin that is not allowed gets no CORS header, and the browser keeps the answer from
// its page. Where any origin is allowed, answers vary by Origin for caches.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type HeaderList, withHeaders } from './respond.js';

const ALLOWED_REQUEST_HEADERS = 'Authorization, Content-Type, X-Request-Id';
const EXPOSED_HEADERS = 'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, WWW-Authenticate';
const PREFLIGHT_CACHE_SECONDS = '600';

export interface Cors {
  /** Adds to `headers` the CORS headers every answer to this request carries. */
  addHeaders(req: IncomingMessage, headers: HeaderList): void;
  /** Answers OPTIONS on a path that answers `methods`: 204 with Allow, and a preflight's permissions for an allowed origin. */
  answerOptions(req: IncomingMessage, res: ServerResponse, methods: string[], headers: HeaderList): void;
}

/**
 * A page served from this machine, on any port: what a frontend's dev server (Vite's
 * http://localhost:5173) sends. Browsers write the Origin in lower case, without a path.
 */
const LOOPBACK_ORIGIN = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/;

export interface CorsOptions {
  /** Exact origins (CORS_ORIGINS), as config.ts normalizes them. */
  origins: readonly string[];
  /** Also every loopback origin, on any port: development only (config.ts). */
  loopback: boolean;
}

export function createCors({ origins, loopback }: CorsOptions): Cors {
  const listed = new Set(origins);
  const any = listed.size > 0 || loopback;
  const allowed = (req: IncomingMessage): string | undefined => {
    const origin = req.headers.origin;
    return origin !== undefined && (listed.has(origin) || (loopback && LOOPBACK_ORIGIN.test(origin))) ? origin : undefined;
  };
  return {
    addHeaders(req, headers) {
      if (!any) return;
      const origin = allowed(req);
      if (origin !== undefined) headers.push('Access-Control-Allow-Origin', origin, 'Access-Control-Expose-Headers', EXPOSED_HEADERS);
      headers.push('Vary', 'Origin');
    },
    answerOptions(req, res, methods, headers) {
      const allow = [...methods, 'OPTIONS'].join(', ');
      const out: Record<string, string> = { Allow: allow };
      const origin = allowed(req);
      if (any) out.Vary = 'Origin';
      if (origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
        Object.assign(out, {
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Methods': allow,
          'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS,
          'Access-Control-Max-Age': PREFLIGHT_CACHE_SECONDS,
        });
      }
      res.writeHead(204, withHeaders(headers, out));
      res.end();
    },
  };
}
