// paginate() against the real server, on each engine: every person of a search, by cursor,
// in the search's order, and none skipped or repeated when records are imported and deleted
// between pages (where offset paging skips one, shown beside it). Then against a local
// server: a failure mid-way, a cursor answered back for itself, an abort.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookupDraftsClient, LookupApiError, type LookupDraftsClient, type Person, paginate } from '../../client/src/drafts.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { recordReadsEverything } from '../fixtures/credentials.js';
import { employee, tokens } from '../fixtures/small.js';
import { contractCheckedFetch, type Exchange } from '../helpers/contractCheckedFetch.js';
import { engines } from '../helpers/databases.js';
import { json, type LocalServer, startLocalServer } from '../helpers/localServer.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Person n (1-based), created on day n of 2024: the search's order is n's. */
const personId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const employeeId = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;
const created = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 3_600_000).toISOString();
const personRecords = (n: number): ImportRecord[] => [
  { type: 'person', id: personId(n), createdAt: created(n), updatedAt: created(n) },
  employee({ id: employeeId(n), companyId: 'acme-corp', personId: personId(n), lastName: `Pager${n}`, createdAt: created(n), updatedAt: created(n) }),
];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ids = (people: Person[]) => people.map((p) => p.id);

describe.each(engines)('paginate on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      engine,
      records: [
        { type: 'company', id: 'acme-corp', name: 'Acme' },
        { type: 'credential', name: 'acme', token: tokens.acme, companies: ['acme-corp'], ...recordReadsEverything },
        ...range(10, 21).flatMap(personRecords),
      ],
    });
  });
  afterAll(() => server?.close());

  let exchanges: Exchange[];
  const drafts = (): LookupDraftsClient => {
    const checked = contractCheckedFetch();
    exchanges = checked.exchanges;
    return createLookupDraftsClient({ baseUrl: server.url, token: tokens.acme, fetch: checked.fetch });
  };
  const change = (records: ImportRecord[]) => importRecords(server.database.db, records, 'US');

  it('yields every person once, in the search’s order, asking page after page by cursor', async () => {
    const people: Person[] = [];
    for await (const person of paginate(drafts(), '/v1/persons/search', { lastName: 'pager', limit: 5 })) people.push(person);
    expect(ids(people)).toEqual(range(10, 21).map(personId));
    const bodies = exchanges.map((e) => e.body as { pagination: { next: string | null } });
    expect(bodies.at(-1)!.pagination.next).toBeNull();
    expect(bodies.slice(0, -1).every((b) => typeof b.pagination.next === 'string')).toBe(true);
    expect(exchanges.length).toBeGreaterThanOrEqual(3);
  });

  it('neither skips nor repeats anyone present throughout when records change between pages', async () => {
    const seen: Person[] = [];
    for await (const person of paginate(drafts(), '/v1/persons/search', { lastName: 'pager', limit: 4 })) {
      seen.push(person);
      if (seen.length === 4) {
        // After the first page: one read person and one unread person leave, one person
        // arrives before the cursor and one after it.
        await change([
          { type: 'delete', record: 'employee', id: employeeId(10) },
          { type: 'delete', record: 'employee', id: employeeId(15) },
          ...personRecords(1),
          ...personRecords(30),
        ]);
      }
    }
    // Read once each: 10-13 (page one), 14 and 16-21 (there throughout), 30 (after the cursor).
    // Not read: 15 (gone before its page), 1 (arrived before the cursor).
    expect(ids(seen)).toEqual([...range(10, 14), ...range(16, 21), 30].map(personId));
    // Put back for the next test.
    await change([
      { type: 'delete', record: 'employee', id: employeeId(1) },
      { type: 'delete', record: 'employee', id: employeeId(30) },
      ...personRecords(10),
      ...personRecords(15),
    ]);
  });

  it('where offset paging, under the same change, skips a person who was there throughout', async () => {
    const client = drafts();
    const page = async (offset: number) => (await client.POST('/v1/persons/search', { body: { lastName: 'pager', limit: 4, offset } })).data!.persons;
    const first = await page(0);
    await change([{ type: 'delete', record: 'employee', id: employeeId(10) }]);
    const second = await page(4);
    expect(ids([...first, ...second])).not.toContain(personId(14)); // shifted into page one's place
    await change(personRecords(10));
  });

  it('pages the unlinked employment records of Search employees the same way', async () => {
    await change(
      range(1, 7).map((n) => employee({ id: employeeId(100 + n), companyId: 'acme-corp', personId: null, lastName: `Loose${n}`, createdAt: created(n) })),
    );
    const rows = [];
    for await (const row of paginate(drafts(), '/v1/employees/search', { lastName: 'loose', limit: 3 })) rows.push(row);
    expect(rows.map((r) => r.id)).toEqual(range(101, 107).map(employeeId));
    expect(rows.every((r) => r.personId === null)).toBe(true);
  });
});

describe('paginate against a scripted server', () => {
  let local: LocalServer;
  beforeAll(async () => {
    local = await startLocalServer();
  });
  afterAll(() => local?.close());
  const page = (persons: number[], next: string | null) =>
    json(200, { asOf: '2026-01-01T00:00:00Z', persons: persons.map((n) => ({ id: personId(n) })), pagination: { limit: 2, offset: 0, total: 9, next } });
  const drafts = () => createLookupDraftsClient({ baseUrl: local.url, token: 't', retry: false });

  it('throws a LookupApiError when a page fails, after the rows before it', async () => {
    local.script(page([1, 2], 'c1'), json(400, { error: 'invalid_request', details: [{ path: '/body/cursor', message: 'is not a cursor' }] }));
    const seen: string[] = [];
    const error = await (async () => {
      for await (const person of paginate(drafts(), '/v1/persons/search', { limit: 2 })) seen.push(person.id);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([personId(1), personId(2)]);
    expect(error).toBeInstanceOf(LookupApiError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', details: [{ path: '/body/cursor', message: 'is not a cursor' }] });
    expect(local.requests.map((r) => JSON.parse(r.body))).toEqual([{ limit: 2 }, { limit: 2, cursor: 'c1' }]);
  });

  it('stops with an error rather than loop when the cursor it sent comes back (a static mock)', async () => {
    local.script(page([1, 2], 'same'));
    const error = await (async () => {
      for await (const _ of paginate(drafts(), '/v1/persons/search', {})) void _;
    })().catch((e: unknown) => e);
    expect(String(error)).toMatch(/answered the cursor it was sent/);
    expect(local.requests).toHaveLength(2);
  });

  it('stops when its signal aborts', async () => {
    local.script(page([1, 2], 'c1'), page([3, 4], 'c2'), page([5], null));
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const person of paginate(drafts(), '/v1/persons/search', {}, { signal: controller.signal })) {
        seen.push(person.id);
        if (seen.length === 2) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(seen).toHaveLength(2);
    expect(local.requests).toHaveLength(1);
  });
});
