// Paging by cursor (docs/decisions/0021-cursor-pagination.md), over real HTTP on each
// engine: every kind of search walked page by page gives what paging by offset gives, and
// when people come and go between two pages nobody who was there throughout is skipped or
// repeated. A cursor is bound to its search's filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, demoDataset } from '../../server/demo/dataset.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { employee } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const [everyCompany, acmeOnly, twoCompanies] = demoCredentials.map((c) => c.token);
type Kind = 'persons' | 'employees';
const pathOf = (kind: Kind) => `/v1/${kind}/search`;

// Companies inline (the default), and every credential's companies joined through its company set.
const shapes = engines.flatMap((engine) => [[engine, 'companies inline', '200'] as const, [engine, 'companies joined', '0'] as const]);

describe.each(shapes)('paging by cursor on %s, %s', (engine, _, inlineCompaniesMax) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, records: demoDataset({ people: 160 }), env: { PG_INLINE_COMPANIES_MAX: inlineCompaniesMax } });
  });
  afterAll(() => server?.close());

  const search = async (kind: Kind, body: object, token = everyCompany!) => {
    const res = await server.call('POST', pathOf(kind), { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { [key: string]: any; pagination: { limit: number; offset: number; total: number; next: string | null } };
  };

  /** Every result id, page by page by cursor, with each page's reported offset. */
  const walk = async (kind: Kind, filter: object, limit: number, token?: string) => {
    const ids: string[] = [];
    const offsets: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await search(kind, { ...filter, limit, ...(cursor ? { cursor } : {}) }, token);
      offsets.push(page.pagination.offset);
      ids.push(...page[kind].map((r: { id: string }) => r.id));
      cursor = page.pagination.next ?? undefined;
      if (cursor) expect(page[kind]).toHaveLength(limit);
    } while (cursor);
    return { ids, offsets };
  };

  /** Every result id in one snapshot, by offset. */
  const everything = async (kind: Kind, filter: object, token?: string) => {
    const first = await search(kind, { ...filter, limit: 100 }, token);
    const ids: string[] = first[kind].map((r: { id: string }) => r.id);
    for (let offset = 100; offset < first.pagination.total; offset += 100)
      ids.push(...(await search(kind, { ...filter, limit: 100, offset }, token))[kind].map((r: { id: string }) => r.id));
    expect(ids).toHaveLength(first.pagination.total);
    return ids;
  };

  const personFilters = [
    {},
    { companyId: 'acme-corp' },
    { lastName: 'son' },
    { lastName: 'a' },
    { firstName: 'an' },
    { companyId: 'acme-corp', lastName: 'e' },
    { createdFrom: '2024-01-01T00:00:00Z', createdBefore: '2025-06-01T12:00:00.5Z' },
    { phone: '(415) 555-0132' },
  ];
  const employeeFilters = [{}, { lastName: 'a' }, { companyId: 'acme-corp' }, { createdFrom: '2020-01-01T00:00:00Z' }];
  const cases = [...personFilters.map((filter) => ['persons', filter] as const), ...employeeFilters.map((filter) => ['employees', filter] as const)];

  it.each(cases)('walks %s %j by cursor as paging by offset does, for every credential', async (kind, filter) => {
    for (const token of [everyCompany, acmeOnly, twoCompanies]) {
      const all = await everything(kind, filter, token);
      for (const limit of [1, 7]) {
        if (limit === 1 && all.length > 40) continue;
        const { ids, offsets } = await walk(kind, filter, limit, token);
        expect(ids, `${token} limit ${limit}`).toEqual(all);
        expect(offsets).toEqual(Array.from({ length: offsets.length }, (_, i) => i * limit));
      }
    }
  });

  it('answers next null on the last page, and on an empty one', async () => {
    const all = await search('persons', { lastName: 'son', limit: 100 });
    expect(all.pagination.next).toBeNull();
    expect((await search('persons', { lastName: 'zzzzz' })).pagination).toEqual({ limit: 50, offset: 0, total: 0, next: null });
    expect((await search('persons', { offset: 10_000 })).pagination.next).toBeNull();
  });

  it('lets the page size change from page to page, and the external ids shown', async () => {
    const first = await search('persons', { companyId: 'acme-corp', limit: 5 });
    const second = await search('persons', { companyId: 'acme-corp', limit: 20, externalIdSystems: [], cursor: first.pagination.next });
    const byOffset = await search('persons', { companyId: 'acme-corp', limit: 20, offset: 5 });
    expect(second.persons.map((p: { id: string }) => p.id)).toEqual(byOffset.persons.map((p: { id: string }) => p.id));
    expect(second.pagination.offset).toBe(5);
  });

  it('refuses a cursor of other filters, another operation, an altered one, or one sent with an offset', async () => {
    const { next } = (await search('persons', { lastName: 'a', limit: 2 })).pagination;
    const refused = async (kind: Kind, body: object) => {
      const res = await server.call('POST', pathOf(kind), { token: everyCompany, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['/body/cursor']);
    };
    await refused('persons', { lastName: 'b', cursor: next });
    await refused('persons', { cursor: next });
    await refused('persons', { lastName: 'a', companyId: 'acme-corp', cursor: next });
    await refused('employees', { lastName: 'a', cursor: next });
    await refused('persons', { lastName: 'a', cursor: next, offset: 2 });
    await refused('persons', { lastName: 'a', cursor: `${next!.slice(0, -3)}abc` });
    await refused('persons', { lastName: 'a', cursor: 'bm90IGEgY3Vyc29y' });
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(next!, 'base64url').toString()), a: "2024-01-01'; DROP TABLE persons; --" }),
    ).toString('base64url');
    await refused('persons', { lastName: 'a', cursor: forged });
    // The same filters written otherwise (folded the same) are the same search.
    expect((await search('persons', { lastName: 'A', limit: 2, cursor: next })).pagination.offset).toBe(2);
    expect((await search('persons', { lastName: 'a', cursor: next, offset: 0 })).pagination.offset).toBe(2);
  });

  it('neither skips nor repeats anyone there throughout when people are deleted and added between pages', async () => {
    const filter = { companyId: 'acme-corp' };
    const before = await everything('persons', filter);
    const first = await search('persons', { ...filter, limit: 10 });
    const seen: string[] = first.persons.map((p: { id: string }) => p.id);
    expect(seen).toEqual(before.slice(0, 10));

    // Between the pages: the cursor's own person and two others already seen go, two not yet
    // seen go, and newcomers arrive before the cursor's place and after it.
    const goneSeen = [seen[9]!, seen[0]!, seen[4]!];
    const goneLater = [before[15]!, before[30]!];
    const placeOf = async (id: string) =>
      (
        await server.database.db.query<{ at: string }>(
          `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM persons WHERE id = $1`,
          [id],
        )
      )[0]!.at;
    const earlyAt = new Date(Date.parse(await placeOf(seen[2]!)) + 1).toISOString();
    const lateAt = new Date(Date.parse(await placeOf(before[20]!)) + 1).toISOString();
    const newcomers = [
      { id: '7a000000-0000-4000-8000-000000000001', at: earlyAt },
      { id: '7a000000-0000-4000-8000-000000000002', at: lateAt },
    ];
    const gone = [...goneSeen, ...goneLater];
    const theirEmployments = await server.database.db.query<{ id: string }>('SELECT id FROM employees WHERE person_id = ANY($1::uuid[])', [gone]);
    const change: ImportRecord[] = [
      ...theirEmployments.map(({ id }): ImportRecord => ({ type: 'delete', record: 'employee', id })),
      ...gone.map((id): ImportRecord => ({ type: 'delete', record: 'person', id })),
      ...newcomers.flatMap(({ id, at }): ImportRecord[] => [
        { type: 'person', id, createdAt: at, updatedAt: at },
        employee({ id: id.replace('7a', '7b'), companyId: 'acme-corp', personId: id, createdAt: at, updatedAt: at }),
      ]),
    ];
    await importRecords(server.database.db, change, 'US');

    let cursor: string | null = first.pagination.next;
    const rest: string[] = [];
    let secondOffset: number | undefined;
    while (cursor) {
      const page = await search('persons', { ...filter, limit: 10, cursor });
      secondOffset ??= page.pagination.offset;
      rest.push(...page.persons.map((p: { id: string }) => p.id));
      cursor = page.pagination.next;
    }
    const throughout = before.slice(10).filter((id) => !goneLater.includes(id));
    expect(rest.filter((id) => !newcomers.some((n) => n.id === id))).toEqual(throughout);
    expect(rest).toContain(newcomers[1]!.id);
    expect(rest).not.toContain(newcomers[0]!.id);
    expect(new Set([...seen, ...rest]).size).toBe(seen.length + rest.length);
    // The second page's offset counts who precedes it now: 10 seen, 3 of them gone, 1 newcomer.
    expect(secondOffset).toBe(10 - goneSeen.length + 1);
  });
});
