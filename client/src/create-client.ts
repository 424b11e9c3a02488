// The one factory both entry points share: openapi-fetch with the client's middleware (bearer
// token, User-Agent) over its fetch layer (per-call deadline, bounded retries), typed and
// answering failures in the contract's shape (typed-client.ts).
import createClient from 'openapi-fetch';
import { type BaseUrl, resolveBaseUrl } from './base-url.js';
import { bearerAuth, type TokenSource } from './middleware/bearer-auth.js';
import { userAgent } from './middleware/user-agent.js';
import { type Fetch, type RetryOptions, resilientFetch } from './resilient-fetch.js';
import { type CodesByOperation, type TypedClient, typedClient } from './typed-client.js';

export interface ClientOptions {
  /** Where the service is: `https://…`, or `http://localhost:3000` (a local server), `http://127.0.0.1:4010` (the mock). */
  baseUrl: BaseUrl;
  /** The bearer token, or a function returning it (called before every request). */
  token: TokenSource;
  /** A fetch to send requests with (defaults to the global one). */
  fetch?: Fetch;
  /** Deadline for each call, retries and their waits included. Default 10000; `Infinity` turns it off. */
  timeoutMs?: number;
  /** Bounded retries on 429/503 (honouring `Retry-After`) and on network errors of reads. `false` turns them off. */
  retry?: false | RetryOptions;
  /** Your application's product token, sent before ours in User-Agent (e.g. `billing-app/2.1`). */
  userAgent?: string;
}

export const defaultTimeoutMs = 10_000;

/** What an entry point knows of its contract: each operation's error codes, and the POST paths that only read. */
export interface ContractFacts {
  codes: CodesByOperation;
  readPosts: readonly string[];
}

export function createConfiguredClient<Paths extends {}>(options: ClientOptions, contract: ContractFacts): TypedClient<Paths> {
  // Looked up per request, so a fetch patched after the client was created is used too.
  const baseFetch: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const client = createClient<Paths, 'application/json'>({
    baseUrl: resolveBaseUrl(options.baseUrl),
    fetch: resilientFetch(baseFetch, { timeoutMs: options.timeoutMs ?? defaultTimeoutMs, retry: options.retry ?? {}, readPosts: contract.readPosts }),
  });
  client.use(bearerAuth(options.token), userAgent(options.userAgent));
  return typedClient(client, contract.codes);
}
