import type { Middleware } from 'openapi-fetch';
import { clientVersion } from '../version.js';

/**
 * Sends `User-Agent: [<app> ]lookup-client/<version>` where the runtime allows it. Browsers
 * (pages and workers) own that header: setting it is ignored or forces a CORS preflight, so
 * there the middleware does nothing.
 */
export function userAgent(app?: string): Middleware {
  const value = [app, `lookup-client/${clientVersion}`].filter(Boolean).join(' ');
  return {
    onRequest({ request }) {
      if (isBrowser() || request.headers.has('User-Agent')) return undefined;
      request.headers.set('User-Agent', value);
      return request;
    },
  };
}

function isBrowser(): boolean {
  const g = globalThis as { document?: unknown; WorkerGlobalScope?: unknown };
  return g.document !== undefined || g.WorkerGlobalScope !== undefined;
}
