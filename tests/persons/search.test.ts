// Search persons, rule by rule, over real HTTP on each engine (small hand-made dataset).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(engines)('search persons on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, records: smallDataset() });
  });
  afterAll(() => server?.close());

  const search = async (body: object, token = tokens.both) => {
    const res = await server.call('POST', '/v1/persons/search', { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const personIds = (body: any) => body.persons.map((p: any) => p.id);

  it('lists only people with an employment in the credential companies, each with only those employments', async () => {
    const body = await search({});
    expect(personIds(body)).toEqual([ids.ana, ids.emile]);
    expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 2, next: null });
    const emile = body.persons[1];
    expect(emile.employments.map((e: any) => e.companyId)).toEqual(['globex', 'acme-corp']);
    expect(JSON.stringify(body)).not.toContain('secret-co');
  });

  it('sorts people by createdAt then id, and employments by createdAt then id', async () => {
    const body = await search({});
    const created = body.persons.map((p: any) => p.createdAt);
    expect([...created].sort()).toEqual(created);
    const emile = body.persons[1];
    expect(emile.employments.map((e: any) => e.id)).toEqual([ids.emileGlobex, ids.emileAcme]);
  });

  it('matches names case-insensitively, Unicode-aware, as substrings', async () => {
    for (const firstName of ['émi', 'ÉMI', 'Émile', 'mil']) expect(personIds(await search({ firstName })), firstName).toEqual([ids.emile]);
    expect(personIds(await search({ lastName: 'DUR' }))).toEqual([ids.ana, ids.emile]);
    expect(personIds(await search({ lastName: 'durá' }))).toEqual([ids.ana]);
  });

  it('takes %, _ and \\ literally', async () => {
    for (const lastName of ['%', '_', '\\', 'D%d', 'Dur_nd']) expect((await search({ lastName })).pagination.total, lastName).toBe(0);
  });

  it('requires company, names and phone to hold on one and the same employment', async () => {
    // Émile's globex employment spells "Emile" without the accent.
    expect((await search({ companyId: 'globex', firstName: 'émi' })).pagination.total).toBe(0);
    expect(personIds(await search({ companyId: 'acme-corp', firstName: 'émi' }))).toEqual([ids.emile]);
    expect((await search({ companyId: 'globex', phone: '(415) 555-0132' })).pagination.total).toBe(0);
    expect(personIds(await search({ companyId: 'acme-corp', phone: '(415) 555-0132', lastName: 'durand' }))).toEqual([ids.emile]);
  });

  it('never trims the employments of a matching person', async () => {
    const body = await search({ companyId: 'globex' });
    expect(body.persons[0].employments).toHaveLength(2);
  });

  it('matches phones after normalizing the query to E.164, and never returns unlinked records', async () => {
    // ...written as people paste it: padded, with non-breaking spaces, as a tel: URI.
    for (const phone of [
      '(415) 555-0132',
      '+1 415-555-0132',
      '4155550132',
      '  +1 415 555 0132  ',
      '+1\u00a0415\u00a0555\u00a00132\n',
      'tel:+14155550132',
      'tel:+1-415-555-0132;ext=7',
      'tel:415-555-0132;phone-context=+1',
    ]) {
      const body = await search({ phone });
      expect(personIds(body), phone).toEqual([ids.emile]);
    }
    expect(JSON.stringify(await search({}))).not.toContain(ids.unlinked);
  });

  it('answers a company outside the credential with an empty result, not an error', async () => {
    expect(await search({ companyId: 'secret-co' })).toMatchObject({ persons: [], pagination: { total: 0 } });
    expect(await search({ companyId: 'never-heard-of' })).toMatchObject({ persons: [], pagination: { total: 0 } });
  });

  it('matches personId exactly, and only within the credential', async () => {
    expect(personIds(await search({ personId: ids.emile }))).toEqual([ids.emile]);
    expect((await search({ personId: ids.hidden })).pagination.total).toBe(0);
    expect((await search({ personId: ids.emile }, tokens.none)).pagination.total).toBe(0);
  });

  it('bounds creation time: createdFrom inclusive, createdBefore exclusive', async () => {
    const emileCreated = '2024-03-02T09:15:00.000Z';
    expect(personIds(await search({ createdFrom: emileCreated }))).toEqual([ids.emile]);
    expect(personIds(await search({ createdBefore: emileCreated }))).toEqual([ids.ana]);
    expect(personIds(await search({ createdFrom: '2024-03-02T10:15:00+01:00' }))).toEqual([ids.emile]);
    expect((await search({ createdFrom: emileCreated, createdBefore: emileCreated })).pagination.total).toBe(0);
  });

  it('paginates people with an exact total, past the end included', async () => {
    expect(await search({ limit: 1, offset: 1 })).toMatchObject({ pagination: { limit: 1, offset: 1, total: 2 } });
    expect(personIds(await search({ limit: 1, offset: 1 }))).toEqual([ids.emile]);
    expect(await search({ offset: 10 })).toMatchObject({ persons: [], pagination: { limit: 50, offset: 10, total: 2 } });
  });

  it('paginates name and phone matches with an exact total, past the end included', async () => {
    expect(personIds(await search({ lastName: 'DUR', limit: 1, offset: 1 }))).toEqual([ids.emile]);
    expect(await search({ lastName: 'DUR', offset: 2 })).toMatchObject({ persons: [], pagination: { offset: 2, total: 2 } });
    expect(await search({ lastName: 'durá', offset: 1 })).toMatchObject({ persons: [], pagination: { offset: 1, total: 1 } });
    expect(await search({ phone: '(415) 555-0132', offset: 5 })).toMatchObject({ persons: [], pagination: { offset: 5, total: 1 } });
  });

  it('selects external ids without filtering people', async () => {
    const emileAcme = (body: any) => body.persons.find((p: any) => p.id === ids.emile).employments.find((e: any) => e.id === ids.emileAcme);
    expect(emileAcme(await search({})).externalIds).toHaveLength(2);
    expect(emileAcme(await search({ externalIdSystems: ['payroll'] })).externalIds).toEqual([{ system: 'payroll', system_id: 'PR-1' }]);
    const none = await search({ externalIdSystems: [] });
    expect(emileAcme(none).externalIds).toEqual([]);
    expect(none.pagination.total).toBe(2);
  });

  it('derives membership status and shows missing participation and coverage as null', async () => {
    const [, emile] = (await search({})).persons;
    const [globex, acme] = emile.employments;
    expect(acme.membership).toEqual({ status: 'active', invitation: null });
    expect(globex.membership.status).toBe('invited_expired');
    expect(globex.membership.invitation).toEqual({ status: 'pending', invitedAt: '2024-03-05T10:00:00.000Z', expiresAt: '2024-04-04T10:00:00.000Z' });
    expect(acme.participation).toEqual({ decision: 'opt_in', decidedAt: '2025-06-15T11:05:00.000Z' });
    expect(acme.coverage).toBeNull();
    expect(globex.participation).toBeNull();
    expect(globex.coverage).toMatchObject({ status: 'terminated', planTier: 'employee_only' });
    expect(acme.contact.phone).toBe('+14155550132');
  });

  it('reads as of a snapshot instant taken during the request, and is never cached', async () => {
    const before = Date.now();
    const res = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: {} });
    const asOf = Date.parse(res.body.asOf);
    expect(asOf).toBeGreaterThanOrEqual(before - 1000);
    expect(asOf).toBeLessThanOrEqual(Date.now() + 1000);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each<[string, object, string]>([
    ['limit 0', { limit: 0 }, '/body/limit'],
    ['limit 101', { limit: 101 }, '/body/limit'],
    ['a fractional limit', { limit: 1.5 }, '/body/limit'],
    ['offset -1', { offset: -1 }, '/body/offset'],
    ['an empty firstName', { firstName: '' }, '/body/firstName'],
    ['an unknown field', { lastname: 'dur' }, '/body'],
    ['a date-time without offset', { createdFrom: '2024-01-01T00:00:00' }, '/body/createdFrom'],
    ['a malformed personId', { personId: 'emile' }, '/body/personId'],
    ['a number for a name', { lastName: 42 }, '/body/lastName'],
    ['an unparseable phone', { phone: 'call me' }, '/body/phone'],
    ['a malformed companyId', { companyId: 'a b' }, '/body/companyId'],
    ['a name holding U+0000', { lastName: 'Dur\u0000' }, '/body/lastName'],
    ['a name holding a lone surrogate', { firstName: '\ud800mile' }, '/body/firstName'],
    ['an array body', [], '/body'],
  ])('rejects %s with invalid_request and details', async (_, body, path) => {
    const res = await server.call('POST', '/v1/persons/search', { token: tokens.both, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.details.map((d: any) => d.path)).toContain(path);
  });
});
