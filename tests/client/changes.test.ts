// The drafts client's feed follower (client/src/changes.ts) against the real server, on
// each engine: it reads page after page until caught up, hands over each page with its
// `next`, resumes from a stored one, waits and asks again with `pollMs`, stops on its
// signal, and throws the service's 410 as a LookupApiError. Every response is checked
// against the contract on its way in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesPage, createLookupDraftsClient, followChanges, LookupApiError } from '../../client/src/drafts.js';
import { importRecords } from '../../server/importing/index.js';
import { employee, ids, smallDataset, tokens } from '../fixtures/small.js';
import { contractCheckedFetch } from '../helpers/contractCheckedFetch.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(engines)('following the change feed with the typed client on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, records: smallDataset() });
  });
  afterAll(() => server?.close());
  const drafts = () => createLookupDraftsClient({ baseUrl: server.url, token: tokens.both, fetch: contractCheckedFetch().fetch, retry: false });

  it('reads every page until caught up, then returns; resumes after a stored next', async () => {
    const pages = [];
    for await (const page of followChanges(drafts(), 'acme-corp', { limit: 2 })) pages.push(page);
    expect(pages.map((p) => p.changes.length)).toEqual([2, 1]);
    expect(
      pages
        .flatMap((p) => p.changes)
        .map((c) => c.employeeId)
        .sort(),
    ).toEqual([ids.anaAcme, ids.emileAcme, ids.unlinked].sort());
    const stored = pages.at(-1)!.next;
    await importRecords(server.database.db, [{ type: 'membership', employeeId: ids.anaAcme, status: 'revoked' }], 'US');
    const later = [];
    for await (const page of followChanges(drafts(), 'acme-corp', { after: stored })) later.push(...page.changes);
    expect(later.map((c) => [c.kind, c.employeeId])).toEqual([['employee.updated', ids.anaAcme]]);
  });

  it('polls once caught up, handing over a change committed while it waited, and stops on its signal', async () => {
    const { next } = await changesPage(drafts(), 'acme-corp', { limit: 1000 });
    const stop = new AbortController();
    const seen: string[] = [];
    // Its outcome is taken at once: the follower may stop before the import has returned.
    const stopped = (async () => {
      for await (const page of followChanges(drafts(), 'acme-corp', { after: next, pollMs: 50, signal: stop.signal })) {
        seen.push(...page.changes.map((c) => c.kind));
        stop.abort();
      }
    })().then(
      () => 'returned',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 120));
    await importRecords(server.database.db, [employee({ id: ids.unlinked, companyId: 'acme-corp', personId: null, lastName: 'Polled' })], 'US');
    expect(await stopped).toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['employee.updated']);
  });

  it('throws 410 resync_required as a LookupApiError', async () => {
    await server.database.db.query('UPDATE change_feed_pruned SET through = (SELECT position FROM change_feed_head)');
    const error = await changesPage(drafts(), 'acme-corp', { after: 'ZjA' }).catch((e) => e);
    expect(error).toBeInstanceOf(LookupApiError);
    expect(error).toMatchObject({ status: 410, code: 'resync_required' });
  });
});
