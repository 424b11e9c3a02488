// The access audit over real HTTP on each engine: what every person operation records,
// that it holds ids and never personal values, that it is append-only, that a response
// is refused rather than sent unaudited, and that the retention job deletes what expired.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Housekeeping } from '../../server/access/housekeeping.js';
import { loadConfig } from '../../server/config.js';
import { auditOfCredential, auditOfPerson, insertAuditEntries } from '../../server/db/stores/accessAudit.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { createLogger } from '../../server/observability/logger.js';
import { readsEverything } from '../fixtures/credentials.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const NOBODY = '00000000-0000-4000-8000-000000000000';

describe.each(engines)('access audit on %s', (engine) => {
  let server: TestServer;
  let both: string;
  let acme: string;
  beforeAll(async () => {
    server = await startTestServer({ engine, records: smallDataset() });
    both = (await findActiveCredential(server.database.db, hashToken(tokens.both)))!.id;
    acme = (await findActiveCredential(server.database.db, hashToken(tokens.acme)))!.id;
  });
  afterAll(() => server?.close());
  const db = () => server.database.db;
  /** The database once every entry spooled so far is shipped (AUDIT_DURABILITY=spool, PostgreSQL's default). */
  const shipped = async () => {
    await server.auditShipped();
    return db();
  };
  const search = (body: object, token = tokens.both) => server.call('POST', '/v1/persons/search', { token, body });
  const since = () => new Date(Date.now() - 1);
  const entries = async (credentialId: string, from: Date) =>
    (await auditOfCredential(await shipped(), credentialId, { since: from })).map((e) => ({
      operation: e.operation,
      personIds: e.personIds,
      notFoundPersonId: e.notFoundPersonId,
    }));

  it('records each search page with the ids it returned, in response order, at its asOf', async () => {
    const from = since();
    const first = await search({ limit: 1 });
    const second = await search({ limit: 1, offset: 1 });
    const past = await search({ limit: 1, offset: 5 });
    expect([first.status, second.status, past.status]).toEqual([200, 200, 200]);
    const audited = await auditOfCredential(await shipped(), both, { since: from });
    expect(audited.map((e) => e.personIds)).toEqual([[first.body.persons[0].id], [second.body.persons[0].id], []]);
    expect(audited.map((e) => e.at.toISOString())).toEqual([first.body.asOf, second.body.asOf, past.body.asOf]);
    expect(audited.every((e) => e.operation === 'searchPersons' && e.credentialId === both && e.notFoundPersonId === null)).toBe(true);
  });

  it('records Get person, and a 404 as a request for that id that returned nobody', async () => {
    const from = since();
    expect((await server.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.acme })).status).toBe(200);
    expect((await server.call('GET', `/v1/persons/${ids.hidden}`, { token: tokens.acme })).status).toBe(404);
    expect((await server.call('GET', `/v1/persons/${NOBODY}`, { token: tokens.acme })).status).toBe(404);
    expect(await entries(acme, from)).toEqual([
      { operation: 'getPerson', personIds: [ids.emile], notFoundPersonId: null },
      { operation: 'getPerson', personIds: [], notFoundPersonId: ids.hidden },
      { operation: 'getPerson', personIds: [], notFoundPersonId: NOBODY },
    ]);
  });

  it('names the person a search by personId asked for when it found nobody', async () => {
    const from = since();
    await search({ personId: ids.hidden }, tokens.acme);
    await search({ personId: ids.ana }, tokens.acme);
    expect(await entries(acme, from)).toEqual([
      { operation: 'searchPersons', personIds: [], notFoundPersonId: ids.hidden },
      { operation: 'searchPersons', personIds: [ids.ana], notFoundPersonId: null },
    ]);
  });

  it("answers a person's history: who retrieved them, when, how, and who asked in vain", async () => {
    const from = since();
    await server.call('GET', `/v1/persons/${ids.hidden}`, { token: tokens.acme });
    await search({ lastName: 'durand' });
    const history = await auditOfPerson(await shipped(), ids.emile, { since: from });
    expect(history.map((e) => [e.operation, e.credentialName])).toEqual([['searchPersons', 'acme and globex']]);
    const hidden = await auditOfPerson(await shipped(), ids.hidden, { since: from });
    expect(hidden.map((e) => [e.operation, e.credentialName, e.notFoundPersonId])).toEqual([['getPerson', 'acme only', ids.hidden]]);
  });

  it('does not record requests refused before the operation ran (401, 400), which returned no one', async () => {
    const before = await auditOfPerson(await shipped(), ids.emile);
    expect((await server.call('GET', `/v1/persons/${ids.emile}`, { token: 'plk_unknown' })).status).toBe(401);
    expect((await search({ limit: 0 })).status).toBe(400);
    expect(await auditOfPerson(await shipped(), ids.emile)).toHaveLength(before.length);
  });

  it('holds ids, an operation and times, never a name, contact detail, birth date or external id', async () => {
    await search({ lastName: 'dur' });
    await server.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.both });
    const rows = await (await shipped()).query<{ row: string }>('SELECT a::text AS row FROM access_audit a');
    expect(rows.length).toBeGreaterThan(0);
    const everything = rows
      .map((r) => r.row)
      .join('\n')
      .toLowerCase();
    const personal = smallDataset().flatMap((r) =>
      r.type === 'employee'
        ? [r.firstName, r.lastName, r.email, r.phone, r.address.line1, r.address.city, r.dateOfBirth, ...r.externalIds.map((x) => x.system_id)]
        : [],
    );
    for (const value of new Set(personal)) expect(everything).not.toContain(value.toLowerCase());
    // Whatever a row holds is a UUID, an operation name, a time or an empty array.
    const cells = await db().query<Record<string, unknown>>(
      'SELECT credential_id::text, operation, person_ids::text, not_found_person_id::text FROM access_audit',
    );
    for (const cell of cells) {
      expect(cell.operation).toMatch(/^(searchPersons|getPerson)$/);
      expect(String(cell.person_ids)).toMatch(/^\{([0-9a-f-]{36}(,[0-9a-f-]{36})*)?\}$/);
    }
  });

  it('is append-only: entries cannot be changed or deleted, except by the retention job', async () => {
    await search({ limit: 1 });
    await expect(db().query(`UPDATE access_audit SET operation = 'getPerson'`)).rejects.toThrow(/append-only/);
    await expect(db().query('DELETE FROM access_audit')).rejects.toThrow(/append-only/);
    await expect(db().query('TRUNCATE access_audit')).rejects.toThrow(/append-only/);
    expect((await auditOfCredential(await shipped(), both)).length).toBeGreaterThan(0);
  });

  it('fails the request with the contract error, sending no one, when the query cannot write its entry (commit)', async () => {
    // PostgreSQL spools by default (tests/access/audit-spool.test.ts); the query writes the entry with commit.
    const inStatement = engine === 'pglite' ? server : await startTestServer({ database: server.database, env: { AUDIT_DURABILITY: 'commit' } });
    const search = (body: object) => inStatement.call('POST', '/v1/persons/search', { token: tokens.both, body });
    await db().query(`CREATE FUNCTION refuse_audit_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit unavailable'; END $$`);
    await db().query('CREATE TRIGGER refuse_audit_for_test BEFORE INSERT ON access_audit FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_for_test()');
    try {
      const searched = await search({ lastName: 'durand' });
      const got = await inStatement.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.both });
      for (const res of [searched, got]) {
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ error: 'internal_error' });
      }
    } finally {
      await db().query('DROP TRIGGER refuse_audit_for_test ON access_audit');
      await db().query('DROP FUNCTION refuse_audit_for_test()');
    }
    expect((await search({ lastName: 'durand' })).status).toBe(200);
    if (inStatement !== server) await inStatement.close();
  });

  describe('person index', () => {
    it('keeps new ids in a pending list past the default 4 MB, finds them there, and the housekeeping job merges them', async () => {
      const housekeeping = new Housekeeping(db(), createLogger('silent'), 365, 30 * 86_400_000);
      await housekeeping.runOnce();
      const someone = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      // 160,000 ids: more than the 4 MB a GIN pending list holds by default before the
      // inserting statement merges it.
      const pages = Array.from({ length: 3_200 }, (_, page) => ({
        at: new Date(),
        credentialId: acme,
        operation: 'searchPersons' as const,
        ...readsEverything,
        personIds: Array.from({ length: 50 }, (_, i) => someone(page * 50 + i)),
      }));
      for (let i = 0; i < pages.length; i += 400) await insertAuditEntries(db(), pages.slice(i, i + 400));
      expect((await auditOfPerson(db(), someone(123_456))).map((e) => e.personIds.length)).toEqual([50]);
      const { auditIndexPagesMerged } = await housekeeping.runOnce();
      expect(auditIndexPagesMerged * 8).toBeGreaterThan(4_096);
      expect((await auditOfPerson(db(), someone(123_456))).map((e) => e.personIds.length)).toEqual([50]);
      expect((await housekeeping.runOnce()).auditIndexPagesMerged).toBe(0);
    });
  });

  describe('retention', () => {
    const day = 86_400_000;
    beforeEach(async () => {
      const old = (days: number) => ({
        at: new Date(Date.now() - days * day),
        credentialId: acme,
        operation: 'getPerson' as const,
        ...readsEverything,
        personIds: [ids.ana],
      });
      await insertAuditEntries(db(), [old(400), old(366), old(364), old(1)]);
    });

    it('deletes entries older than AUDIT_RETENTION_DAYS, in bounded batches, keeping the rest', async () => {
      const housekeeping = new Housekeeping(db(), createLogger('silent'), 365, 30 * 86_400_000);
      const result = await housekeeping.runOnce();
      expect(result.auditEntriesDeleted).toBe(2);
      const left = (await auditOfPerson(await shipped(), ids.ana)).map((e) => Math.round((Date.now() - e.at.getTime()) / day));
      expect(left.filter((d) => d > 300).sort()).toEqual([364]);
      expect((await housekeeping.runOnce()).auditEntriesDeleted).toBe(0);
    });

    it('is run by the service itself when it starts', async () => {
      const second = await startTestServer({ database: server.database, env: { AUDIT_RETENTION_DAYS: '30' } });
      try {
        const deadline = Date.now() + 10_000;
        let oldest = Infinity;
        while (Date.now() < deadline) {
          oldest = Math.max(...(await auditOfPerson(await shipped(), ids.ana)).map((e) => (Date.now() - e.at.getTime()) / day));
          if (oldest < 30) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(oldest).toBeLessThan(30);
      } finally {
        await second.close();
      }
    });
  });
});

describe('audit settings', () => {
  it('records nothing with AUDIT_ENABLED=false', async () => {
    const server = await startTestServer({ records: smallDataset(), env: { AUDIT_ENABLED: 'false' } });
    try {
      expect((await server.call('POST', '/v1/persons/search', { token: tokens.both, body: {} })).status).toBe(200);
      expect(await server.database.db.query('SELECT 1 FROM access_audit')).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('records every response just the same with AUDIT_DURABILITY=flush', async () => {
    const server = await startTestServer({ records: smallDataset(), env: { AUDIT_DURABILITY: 'flush' } });
    try {
      const res = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: {} });
      const audited = await server.database.db.query<{ person_ids: string[] }>('SELECT person_ids::text[] AS person_ids FROM access_audit');
      expect(audited.map((e) => e.person_ids)).toEqual([res.body.persons.map((p: { id: string }) => p.id)]);
    } finally {
      await server.close();
    }
  });

  it('is refused in production', () => {
    expect(() => loadConfig({ APP_ENV: 'production', AUDIT_ENABLED: 'false' })).toThrow(/AUDIT_ENABLED cannot be false in production/);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '0' })).toThrow(/AUDIT_RETENTION_DAYS must be an integer in 1\.\.3650/);
    expect(() => loadConfig({ AUDIT_DURABILITY: 'disk' })).toThrow(/AUDIT_DURABILITY must be one of spool, commit, flush; got "disk"/);
  });
});
