// One delivery's HTTP request: a POST to the address checked (targets.ts), never to what
// the name resolves to by the time the connection is made, with a 10 s limit on the whole
// exchange and no redirect followed (a 3xx is a failed attempt). A fresh connection each
// time: a pooled one could have been opened to another address.
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedTarget } from './targets.js';

export const DELIVERY_TIMEOUT_MS = 10_000;

export type PostOutcome =
  | { outcome: 'delivered'; status: number }
  | { outcome: 'failed'; status: number }
  | { outcome: 'timeout' }
  | { outcome: 'unreachable'; code: string }
  | { outcome: 'aborted' };

export function postDelivery(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<PostOutcome> {
  const { url, address, family } = target;
  // The connection goes to the checked address whatever the name resolves to now; TLS
  // still checks the certificate against the name (servername is the URL's host).
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const requestOptions: RequestOptions = {
    method: 'POST',
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'person-lookup-webhooks' },
    lookup: pinned,
    agent: false,
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  if (options.signal?.aborted) return Promise.resolve({ outcome: 'aborted' });
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const done = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      resolve(outcome);
    };
    const req = send(requestOptions, (res) => {
      const status = res.statusCode ?? 0;
      // The answer's body is not read: only its status counts.
      res.resume();
      done(status >= 200 && status < 300 ? { outcome: 'delivered', status } : { outcome: 'failed', status });
    });
    const timer = setTimeout(() => done({ outcome: 'timeout' }), options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    const onAbort = () => done({ outcome: 'aborted' });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: NodeJS.ErrnoException) => done({ outcome: 'unreachable', code: error.code ?? error.constructor.name }));
    req.end(body);
  });
}
