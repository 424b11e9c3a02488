// A fetch for the client's `fetch` option that checks every response the client receives
// against the contract (retried attempts included, since the client calls it once per
// attempt) and keeps a log of them, so a test can also say what went over the wire.
import type { Fetch } from '../../client/src/index.js';
import { expectContractResponse } from './contract.js';

export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
  /** When the response arrived (Date.now()). */
  at: number;
}

export function contractCheckedFetch(): { fetch: Fetch; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const fetch: Fetch = async (request) => {
    const response = await globalThis.fetch(request);
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: expectContractResponse reports it
    }
    // The check takes the path as sent (origin-relative), not a whole URL.
    const { pathname, search } = new URL(request.url);
    expectContractResponse(request.method, pathname + search, response.status, response.headers, body);
    exchanges.push({ method: request.method, path: pathname, status: response.status, headers: response.headers, body, at: Date.now() });
    return response;
  };
  return { fetch, exchanges };
}
