// List changes (draft) over real HTTP on each engine: what a follower reads after each kind
// of write, how `next` keeps its place, the retention's 410, a malformed or foreign cursor's
// 400, and the same 403 as hello. Every answer is checked against the contract (call.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeChangeCursor } from '../../server/domain/changeCursor.js';
import { importRecords } from '../../server/importing/index.js';
import { erasePerson } from '../../server/privacy/erasure.js';
import { employee, ids, smallDataset, tokens } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(engines)('list changes on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, records: smallDataset() });
  });
  afterAll(() => server?.close());

  const path = (companyId: string, query = '') => `/v1/companies/${companyId}/changes${query}`;
  const page = async (companyId: string, query = '', token = tokens.both) => {
    const res = await server.call('GET', path(companyId, query), { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as {
      asOf: string;
      next: string;
      changes: { position: string; kind: string; companyId: string; employeeId: string | null; personId: string | null; changedAt: string }[];
    };
  };
  const kinds = (body: Awaited<ReturnType<typeof page>>) => body.changes.map((c) => [c.kind, c.employeeId ?? c.personId]);

  it('starts at the oldest change retained: the initial load, one employee.created each, in the company only', async () => {
    const body = await page('acme-corp');
    expect(kinds(body).sort()).toEqual(
      [
        ['employee.created', ids.anaAcme],
        ['employee.created', ids.emileAcme],
        ['employee.created', ids.unlinked],
      ].sort(),
    );
    expect(body.changes.every((c) => c.companyId === 'acme-corp')).toBe(true);
    expect(body.changes.find((c) => c.employeeId === ids.emileAcme)?.personId).toBe(ids.emile);
    expect(body.changes.find((c) => c.employeeId === ids.unlinked)?.personId).toBeNull();
    // Positions increase; changedAt never goes back.
    const positions = body.changes.map((c) => c.position);
    expect(new Set(positions).size).toBe(3);
    expect([...body.changes].map((c) => c.changedAt)).toEqual([...body.changes].map((c) => c.changedAt).sort());
  });

  it('pages by limit, and after `next` answers only later changes; an empty page keeps (or moves on) its place', async () => {
    const first = await page('acme-corp', '?limit=2');
    expect(first.changes).toHaveLength(2);
    expect(first.next).toBe(first.changes[1]!.position);
    const second = await page('acme-corp', `?limit=2&after=${first.next}`);
    expect(second.changes).toHaveLength(1);
    const caughtUp = await page('acme-corp', `?after=${second.next}`);
    expect(caughtUp.changes).toEqual([]);
    // globex's changes moved the head past acme's last one; next is the head, not null.
    expect(caughtUp.next).toBe(second.next);
    expect(await page('acme-corp', `?after=${caughtUp.next}`)).toMatchObject({ changes: [], next: caughtUp.next });
  });

  it('records an unchanged re-import as nothing, a change as employee.updated, a relink as unlinked then linked', async () => {
    const { next } = await page('acme-corp', `?after=${(await page('acme-corp')).next}`);
    await importRecords(server.database.db, smallDataset(), 'US');
    expect((await page('acme-corp', `?after=${next}`)).changes).toEqual([]);
    await importRecords(
      server.database.db,
      [
        employee({
          id: ids.anaAcme,
          companyId: 'acme-corp',
          personId: ids.emile,
          firstName: 'Ana',
          lastName: 'Durán',
          phone: '312-555-0187',
          createdAt: '2023-11-14T08:00:00.000Z',
        }),
      ],
      'US',
    );
    const relinked = await page('acme-corp', `?after=${next}`);
    expect(relinked.changes.map((c) => [c.kind, c.employeeId, c.personId])).toEqual([
      ['employee.unlinked', ids.anaAcme, ids.ana],
      ['employee.linked', ids.anaAcme, ids.emile],
    ]);
    await importRecords(server.database.db, [{ type: 'membership', employeeId: ids.anaAcme, status: 'revoked' }], 'US');
    const updated = await page('acme-corp', `?after=${relinked.next}`);
    expect(updated.changes.map((c) => [c.kind, c.employeeId, c.personId])).toEqual([['employee.updated', ids.anaAcme, ids.emile]]);
    // A person's times: person.updated in every company they are employed in, once.
    await importRecords(
      server.database.db,
      [{ type: 'person', id: ids.emile, createdAt: '2024-03-02T09:15:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }],
      'US',
    );
    const touched = await page('acme-corp', `?after=${updated.next}`);
    expect(touched.changes.map((c) => [c.kind, c.employeeId, c.personId])).toEqual([['person.updated', null, ids.emile]]);
    expect((await page('globex', `?after=${updated.next}`)).changes.map((c) => c.kind)).toEqual(['person.updated']);
  });

  it('records an erasure as the employments deleted, then person.erased, in every company the person was in', async () => {
    const { next } = await page('globex', `?after=${(await page('globex', '?limit=1000')).next}`);
    const acmeBefore = (await page('acme-corp', '?limit=1000')).next;
    await erasePerson(server.database.db, ids.emile);
    const globex = await page('globex', `?after=${next}`);
    expect(globex.changes.map((c) => [c.kind, c.employeeId, c.personId])).toEqual([
      ['employee.deleted', ids.emileGlobex, ids.emile],
      ['person.erased', null, ids.emile],
    ]);
    const acme = await page('acme-corp', `?after=${acmeBefore}`);
    expect(acme.changes.map((c) => c.kind).sort()).toEqual(['employee.deleted', 'employee.deleted', 'person.erased']);
    expect(acme.changes.at(-1)!.kind).toBe('person.erased');
  });

  it("reports an invitation's expiry by itself: the service's clock records it within about a second", async () => {
    const { next } = await page('globex', '?limit=1000');
    const expiresAt = new Date(Date.now() + 1_000).toISOString();
    await importRecords(
      server.database.db,
      [{ type: 'invitation', employeeId: ids.unlinked, status: 'pending', invitedAt: '2025-01-01T00:00:00.000Z', expiresAt }],
      'US',
    );
    const written = await page('acme-corp', `?after=${(await page('acme-corp', '?limit=1000')).next}`);
    expect(written.changes).toEqual([]);
    let expired: Awaited<ReturnType<typeof page>> | undefined;
    for (let waited = 0; waited < 5_000 && !expired?.changes.length; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      expired = await page('acme-corp', `?after=${written.next}`);
    }
    expect(expired!.changes.map((c) => [c.kind, c.employeeId])).toEqual([['employee.updated', ids.unlinked]]);
    expect(Date.parse(expired!.changes[0]!.changedAt)).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect((await page('globex', `?after=${next}`)).changes).toEqual([]);
  });

  it('answers 400 for a malformed or unknown cursor and an out-of-range limit, naming the field', async () => {
    for (const after of ['', 'not*a*cursor', 'x'.repeat(25)]) {
      const res = await server.call('GET', path('acme-corp', `?after=${encodeURIComponent(after)}`), { token: tokens.both });
      expect(res.status, after).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details[0].path).toBe('/query/after');
    }
    for (const after of ['abc', encodeChangeCursor(5n).slice(1), Buffer.from('f05').toString('base64url')]) {
      const res = await server.call('GET', path('acme-corp', `?after=${after}`), { token: tokens.both });
      expect(res.status, after).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', details: [{ path: '/query/after', message: expect.stringContaining('after must be') }] });
    }
    for (const limit of ['0', '1001', 'ten']) {
      const res = await server.call('GET', path('acme-corp', `?limit=${limit}`), { token: tokens.both });
      expect(res.status, limit).toBe(400);
      expect(res.body.details[0].path).toBe('/query/limit');
    }
    const unknown = await server.call('GET', path('acme-corp', '?since=1'), { token: tokens.both });
    expect(unknown.status).toBe(400);
    expect((await server.call('GET', path('not a company'), { token: tokens.both })).body).toEqual({ error: 'invalid_company_id' });
  });

  it('answers 403 for a company outside the credential, existing or not, as hello does', async () => {
    for (const [companyId, token] of [
      ['secret-co', tokens.both],
      ['globex', tokens.acme],
      ['no-such-company', tokens.both],
      ['acme-corp', tokens.none],
    ] as const) {
      const res = await server.call('GET', path(companyId), { token });
      expect(res.status, companyId).toBe(403);
      expect(res.body).toEqual({ error: 'forbidden' });
    }
    expect((await server.call('GET', path('acme-corp'))).status).toBe(401);
  });

  it('answers 410 resync_required for a place older than the pruned mark, and from the oldest retained without one', async () => {
    const { next } = await page('acme-corp', '?limit=1000');
    const old = encodeChangeCursor(0n);
    // As housekeeping leaves it once everything so far is older than the retention.
    await server.database.db.query('UPDATE change_feed_pruned SET through = (SELECT position FROM change_feed_head)');
    await server.database.db.query('DELETE FROM changes');
    const res = await server.call('GET', path('acme-corp', `?after=${old}`), { token: tokens.both });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: 'resync_required' });
    // Without after: from the oldest retained, never 410.
    expect(await page('acme-corp')).toMatchObject({ changes: [] });
    expect((await page('acme-corp', `?after=${next}`)).changes).toEqual([]);
  });
});
