// The fetch every call goes through: one deadline per call and bounded retries. It sits at
// the fetch level rather than in a middleware because a retry has to send the request again.
import { deadline } from './deadline.js';
import { retryAfterMs } from './retry-after.js';

export type Fetch = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  retries?: number;
  /** The longest wait the client accepts. A longer `Retry-After` is returned to the caller at once. Default 5000. */
  maxDelayMs?: number;
  /** First wait after a network error (or a 429/503 without `Retry-After`); doubles each retry, with jitter. Default 200. */
  baseDelayMs?: number;
}

export const retryDefaults: Required<RetryOptions> = { retries: 2, maxDelayMs: 5000, baseDelayMs: 200 };

// 429 rate_limited and 503 service_unavailable both mean "nothing was done, come back after
// Retry-After", so any method may be repeated. A network error may have happened after the
// server acted, so only requests that are safe to repeat are retried then: the safe methods,
// and the POSTs that only read (the searches, which take their filters in a body).
const retryableStatuses = new Set([429, 503]);
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

// Node's fetch aborts a request only while the Request objects on the way are reachable
// (undici follows signals through weak references). The body is read after this function
// returns, so each response keeps its requests alive for as long as it lives itself.
const keptAlive = new WeakMap<Response, readonly Request[]>();

export function resilientFetch(fetch: Fetch, options: { timeoutMs: number; retry: RetryOptions | false; readPosts?: readonly string[] }): Fetch {
  const { timeoutMs, readPosts = [] } = options;
  if (!(timeoutMs > 0)) throw new TypeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
  const { retries, maxDelayMs, baseDelayMs } = options.retry === false ? { ...retryDefaults, retries: 0 } : { ...retryDefaults, ...options.retry };
  if (!(Number.isInteger(retries) && retries >= 0)) throw new TypeError(`retry.retries must be an integer >= 0, got ${retries}`);
  const backoff = (attempt: number) => {
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  };
  // Matched on the path's end: a base URL may carry a prefix (https://gateway.example/lookup).
  const safeToRepeat = (request: Request) =>
    safeMethods.has(request.method) || (request.method === 'POST' && readPosts.some((path) => new URL(request.url).pathname.endsWith(path)));

  return async (request) => {
    const signal = deadline(request.signal, timeoutMs);
    // Buffered once so that every attempt can send it (request bodies here are small JSON).
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      const sent = new Request(request, { body, signal });
      let response: Response;
      try {
        response = await fetch(sent);
      } catch (error) {
        if (last || signal.aborted || !safeToRepeat(request)) throw signal.aborted ? signal.reason : error;
        await sleep(backoff(attempt), signal);
        continue;
      }
      keptAlive.set(response, [request, sent]);
      if (last || !retryableStatuses.has(response.status)) return response;
      const wait = retryAfterMs(response.headers.get('Retry-After')) ?? backoff(attempt);
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait, signal);
    }
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
