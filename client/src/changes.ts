// Following a company's change feed (List changes): page after page, each answer's `next`
// sent back as `after`. The feed never ends; `followChanges` reads until it has caught up
// (a page that is not full), then, with `pollMs`, waits and asks again, or returns. Each
// page's `next` is handed over with its changes, so a consumer can store its place after
// applying them and resume there after a restart.
import type { components, paths } from '../../generated/types.full.js';
import type { TypedClient } from './typed-client.js';
import { unwrap } from './unwrap.js';

export type Change = components['schemas']['Change'];
export type ChangesResponse = components['schemas']['ChangesResponse'];

export interface FollowOptions {
  /** Where to start: a `next` (or a change's `position`) stored earlier; absent, the oldest change retained. */
  after?: string;
  /** Changes per page, 1 to 1000 (the service's default, 100, when absent). */
  limit?: number;
  /** Once caught up, wait this long and ask again; absent, return once caught up. */
  pollMs?: number;
  signal?: AbortSignal;
}

/** One page of the company's changes after `after`; a failure (410 `resync_required` among them) throws a LookupApiError. */
export function changesPage(
  client: TypedClient<paths>,
  companyId: string,
  options: Pick<FollowOptions, 'after' | 'limit' | 'signal'> = {},
): Promise<ChangesResponse> {
  const query = { ...(options.after !== undefined && { after: options.after }), ...(options.limit !== undefined && { limit: options.limit }) };
  return unwrap(client.GET('/v1/companies/{companyId}/changes', { params: { path: { companyId }, query }, signal: options.signal }));
}

/**
 * Every page of the company's changes, in commit order:
 *
 * ```ts
 * for await (const { changes, next } of followChanges(drafts, 'acme-corp', { after: stored, pollMs: 1000 })) {
 *   for (const change of changes) await apply(change);
 *   await store(next);
 * }
 * ```
 *
 * A page with no changes is not handed over. `signal` stops it (the wait too).
 */
export async function* followChanges(
  client: TypedClient<paths>,
  companyId: string,
  options: FollowOptions = {},
): AsyncGenerator<ChangesResponse, void, undefined> {
  let after = options.after;
  const limit = options.limit ?? 100;
  for (;;) {
    const page = await changesPage(client, companyId, { after, limit, signal: options.signal });
    if (page.changes.length) yield page;
    after = page.next;
    if (page.changes.length >= limit) continue;
    if (options.pollMs === undefined) return;
    await pause(options.pollMs, options.signal);
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', abort, { once: true });
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
  });
}
