// Search employees (draft), rule by rule, over real HTTP on each engine: the unlinked
// employment records of the small dataset and unlinkedRecords(), their filters, order,
// pagination, asOf and the access audit entry naming the employment ids returned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOfCredential, auditOfEmployee } from '../../server/db/stores/accessAudit.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { ids, smallDataset, tokens, unlinkedRecords } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(engines)('search employees on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, records: [...smallDataset(), ...unlinkedRecords()] });
  });
  afterAll(() => server?.close());

  const search = async (body: object, token = tokens.both) => {
    const res = await server.call('POST', '/v1/employees/search', { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const employeeIds = (body: any) => body.employees.map((e: any) => e.id);

  it('lists only employments with no person, only in the credential companies, oldest first then by id', async () => {
    const body = await search({});
    // ids.unlinked and unlinkedGlobex share their createdAt: the id orders them.
    expect(employeeIds(body)).toEqual([ids.unlinked, ids.unlinkedGlobex, ids.unlinkedAcmeLater]);
    expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 3, next: null });
    expect(body.employees.every((e: any) => e.personId === null)).toBe(true);
    expect(JSON.stringify(body)).not.toContain('secret-co');
    expect(employeeIds(await search({}, tokens.acme))).toEqual([ids.unlinked, ids.unlinkedAcmeLater]);
    expect(await search({}, tokens.none)).toMatchObject({ employees: [], pagination: { total: 0 } });
  });

  it('answers each as a complete Employee, with its source records and external ids as stored or selected', async () => {
    const [later] = (await search({ lastName: "o'brien" })).employees;
    expect(later).toMatchObject({
      id: ids.unlinkedAcmeLater,
      companyId: 'acme-corp',
      personId: null,
      externalIds: [
        { system: 'hris', system_id: 'HR-1' },
        { system: 'payroll', system_id: 'PR-9' },
      ],
      demographics: { firstName: 'Zoë', lastName: "O'Brien_Ångström" },
      contact: { phone: '+14155550132' },
      membership: { status: 'invited_pending', invitation: { status: 'pending' } },
      participation: null,
      coverage: { status: 'awaiting_coverage', endsAt: null },
      createdAt: '2025-06-01T12:00:00.000Z',
    });
    expect((await search({ lastName: "o'brien", externalIdSystems: ['payroll'] })).employees[0].externalIds).toEqual([
      { system: 'payroll', system_id: 'PR-9' },
    ]);
    expect((await search({ lastName: "o'brien", externalIdSystems: [] })).employees[0].externalIds).toEqual([]);
  });

  it('matches names as Search persons does: folded, Unicode-aware substrings, wildcards literal', async () => {
    for (const firstName of ['émi', 'ÉMI', 'Émile']) expect(employeeIds(await search({ firstName })), firstName).toEqual([ids.unlinked]);
    expect(employeeIds(await search({ firstName: 'mile' }))).toEqual([ids.unlinked, ids.unlinkedGlobex]);
    expect(employeeIds(await search({ lastName: 'DURAND' }))).toEqual([ids.unlinked, ids.unlinkedGlobex]);
    expect(employeeIds(await search({ lastName: 'ÅNGSTRÖM' }))).toEqual([ids.unlinkedAcmeLater]);
    expect(employeeIds(await search({ lastName: 'n_Å' }))).toEqual([ids.unlinkedAcmeLater]);
    for (const lastName of ['%', 'D%d', 'Dur_nd', '\\']) expect((await search({ lastName })).pagination.total, lastName).toBe(0);
  });

  it('matches phones in E.164 however they are written, and names, company and phone on the one employment', async () => {
    for (const phone of ['(415) 555-0132', '+1 415 555 0132', 'tel:+14155550132']) {
      expect(employeeIds(await search({ phone })), phone).toEqual([ids.unlinked, ids.unlinkedAcmeLater]);
    }
    expect(employeeIds(await search({ phone: '212.555.0199', companyId: 'globex' }))).toEqual([ids.unlinkedGlobex]);
    expect((await search({ phone: '212.555.0199', companyId: 'acme-corp' })).pagination.total).toBe(0);
    expect(employeeIds(await search({ companyId: 'acme-corp', firstName: 'zo', phone: '4155550132' }))).toEqual([ids.unlinkedAcmeLater]);
    expect((await search({ companyId: 'globex', firstName: 'émi' })).pagination.total).toBe(0);
  });

  it('gives an empty page, not an error, for a company outside the credential', async () => {
    expect(await search({ companyId: 'secret-co' })).toMatchObject({ employees: [], pagination: { total: 0 } });
    expect(await search({ companyId: 'globex' }, tokens.acme)).toMatchObject({ employees: [], pagination: { total: 0 } });
    expect(await search({ companyId: 'no-such-co' })).toMatchObject({ employees: [], pagination: { total: 0 } });
  });

  it("bounds the employment's createdAt: from inclusive, before exclusive, offsets read as the instant they name", async () => {
    expect(employeeIds(await search({ createdFrom: '2024-01-01T00:00:00Z', createdBefore: '2025-06-01T12:00:00Z' }))).toEqual([
      ids.unlinked,
      ids.unlinkedGlobex,
    ]);
    expect(employeeIds(await search({ createdFrom: '2025-06-01T14:00:00+02:00' }))).toEqual([ids.unlinkedAcmeLater]);
    expect(employeeIds(await search({ createdBefore: '2024-01-01T00:00:00.000001Z' }))).toEqual([ids.unlinked, ids.unlinkedGlobex]);
    expect((await search({ createdFrom: '2030-01-01T00:00:00Z' })).pagination.total).toBe(0);
  });

  it('pages employments with an exact total; past the end is an empty page with the true total', async () => {
    expect(await search({ limit: 1, offset: 1 })).toMatchObject({ pagination: { limit: 1, offset: 1, total: 3 } });
    expect(employeeIds(await search({ limit: 1, offset: 1 }))).toEqual([ids.unlinkedGlobex]);
    expect(employeeIds(await search({ limit: 2, offset: 2 }))).toEqual([ids.unlinkedAcmeLater]);
    expect(await search({ offset: 500 })).toMatchObject({ employees: [], pagination: { limit: 50, offset: 500, total: 3 } });
  });

  it('says asOf is the instant of its read, and sends no-store', async () => {
    const before = Date.now();
    const res = await server.call('POST', '/v1/employees/search', { token: tokens.both, body: {} });
    expect(new Date(res.body.asOf).getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(new Date(res.body.asOf).getTime()).toBeLessThanOrEqual(Date.now());
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses what Search persons refuses, with the same codes', async () => {
    const bad = async (body: unknown, status = 400) => {
      const res = await server.call('POST', '/v1/employees/search', { token: tokens.both, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      return res.body;
    };
    expect(await bad({ personId: ids.emile })).toMatchObject({ error: 'invalid_request', details: [{ path: '/body' }] });
    expect(await bad({ lastname: 'dur' })).toMatchObject({ error: 'invalid_request' });
    expect(await bad({ limit: 101 })).toMatchObject({ error: 'invalid_request', details: [{ path: '/body/limit' }] });
    expect(await bad({ offset: -1 })).toMatchObject({ error: 'invalid_request' });
    expect(await bad({ lastName: '' })).toMatchObject({ error: 'invalid_request' });
    expect(await bad({ createdFrom: '2024-01-01 00:00:00Z' })).toMatchObject({ error: 'invalid_request' });
    expect(await bad({ phone: 'not a phone' })).toEqual({
      error: 'invalid_request',
      details: [{ path: '/body/phone', message: 'phone must be a phone number, such as (415) 555-0132 or +44 20 7946 0958' }],
    });
    expect(await bad({ companyId: '-acme' })).toMatchObject({ error: 'invalid_request' });
    expect((await server.call('POST', '/v1/employees/search', { token: 'plk_wrong_token_000000000000', body: {} })).body).toEqual({ error: 'invalid_api_key' });
  });

  it('records each page in the access audit by the employment ids it returned, in response order, at its asOf', async () => {
    const credentialId = (await findActiveCredential(server.database.db, hashToken(tokens.both)))!.id;
    const from = new Date(Date.now() - 1);
    const first = await search({ limit: 2 });
    const empty = await search({ companyId: 'secret-co' });
    await server.auditShipped();
    const audited = await auditOfCredential(server.database.db, credentialId, { since: from });
    expect(audited.map((e) => [e.operation, e.at.toISOString(), e.personIds, e.employeeIds])).toEqual([
      ['searchEmployees', first.asOf, [], [ids.unlinked, ids.unlinkedGlobex]],
      ['searchEmployees', empty.asOf, [], []],
    ]);
    expect((await auditOfEmployee(server.database.db, ids.unlinkedGlobex, { since: from })).map((e) => e.at.toISOString())).toEqual([first.asOf]);
  });

  it('leaves the person operations as they were: they never show these records', async () => {
    const res = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: {} });
    for (const id of [ids.unlinked, ids.unlinkedGlobex, ids.unlinkedAcmeLater]) expect(JSON.stringify(res.body)).not.toContain(id);
  });
});

describe.each(engines)('search employees with the audit written by its own statement on %s', (engine) => {
  it('commits the entry with the read', async () => {
    const server = await startTestServer({ engine, records: [...smallDataset(), ...unlinkedRecords()], env: { AUDIT_DURABILITY: 'commit' } });
    try {
      const credentialId = (await findActiveCredential(server.database.db, hashToken(tokens.acme)))!.id;
      const res = await server.call('POST', '/v1/employees/search', { token: tokens.acme, body: { limit: 1, offset: 1 } });
      expect(res.status).toBe(200);
      const audited = await auditOfCredential(server.database.db, credentialId);
      expect(audited.map((e) => [e.operation, e.at.toISOString(), e.employeeIds])).toEqual([['searchEmployees', res.body.asOf, [ids.unlinkedAcmeLater]]]);
    } finally {
      await server.close();
    }
  });
});

describe('search employees where drafts are off', () => {
  it('answers 404 draft_unavailable', async () => {
    const server = await startTestServer({ records: [...smallDataset(), ...unlinkedRecords()], env: { DRAFTS_ENABLED: 'false' } });
    try {
      const res = await server.call('POST', '/v1/employees/search', { token: tokens.both, body: {} });
      expect([res.status, res.body]).toEqual([404, { error: 'draft_unavailable' }]);
    } finally {
      await server.close();
    }
  });
});
