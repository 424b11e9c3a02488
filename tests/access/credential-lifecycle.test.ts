// Credential changes on two instances sharing one PostgreSQL (one in its own process, one
// in this one), as behind a load balancer: a change of companies, an expiry and a
// rotation reach both within CREDENTIAL_CACHE_MS, expiries and overlaps bite on time even
// while a credential is cached, and every listing answered meanwhile is exact for the
// companies it was answered for, its total and its people from the same company set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeExpiry, grantCompanies, revokeCompanies, rotate } from '../../server/access/credentialChanges.js';
import { findActiveCredential, insertCredential } from '../../server/db/stores/credentials.js';
import { hashToken, newToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { readsEverything } from '../fixtures/credentials.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { type Call, contractCall } from '../helpers/call.js';
import { type ChildServer, startChildServer } from '../helpers/childServer.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseUrl } from '../helpers/environment.js';
import { type ConfiguredServer, startConfiguredServer } from '../helpers/server.js';

const CACHE_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!databaseUrl) {
  describe.skip('credential lifecycle on two instances (set DATABASE_URL to run)', () => it('skipped', () => {}));
}

describe.runIf(databaseUrl)('credential lifecycle on two instances sharing PostgreSQL', () => {
  let database: ThrowawayDatabase;
  let a: ChildServer;
  let b: ConfiguredServer;
  let instances: { name: string; call: Call }[];
  beforeAll(async () => {
    database = await throwawayDatabase('postgres');
    await importRecords(database.db, smallDataset(), 'US');
    const env = {
      DATABASE_URL: database.url!,
      CREDENTIAL_CACHE_MS: String(CACHE_MS),
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      AUTH_FAILURES_PER_MINUTE: '100000',
      DEMO_DATA: 'false',
    };
    [a, b] = await Promise.all([startChildServer(env), startConfiguredServer(env)]);
    instances = [
      { name: 'a', call: contractCall(a.url) },
      { name: 'b', call: b.call },
    ];
  }, 120_000);
  afterAll(async () => {
    await a?.stop();
    await b?.close();
    await database?.drop();
  });

  const credentialId = async (token: string) => (await findActiveCredential(database.db, hashToken(token)))!.id;
  const list = (call: Call, token: string, body: object = {}) => call('POST', '/v1/persons/search', { token, body: { limit: 100, ...body } });
  const statusOf = async (call: Call, token: string) => (await call('GET', `/v1/persons/${ids.emile}`, { token })).status;

  /**
   * Polls both instances after a change of companies until well past CREDENTIAL_CACHE_MS.
   * Every listing must be exactly the old or the new companies' people, total and page
   * alike; once an instance answers for the new companies it never goes back; and past
   * CREDENTIAL_CACHE_MS both answer for the new companies.
   */
  async function expectFollowed(token: string, change: () => Promise<unknown>, before: string[], after: string[], filter: object = {}) {
    for (const { call } of instances) expect(idsOf((await list(call, token, filter)).body)).toEqual(before);
    const changedAt = Date.now();
    await change();
    const switched: Record<string, boolean> = {};
    while (Date.now() - changedAt < CACHE_MS + 1_500) {
      for (const { name, call } of instances) {
        const res = await list(call, token, filter);
        expect(res.status).toBe(200);
        const people = idsOf(res.body);
        expect(res.body.pagination.total, `${name}: the total counts the people listed`).toBe(people.length);
        expect([before, after], `${name}: the old or the new companies' people, never a mix`).toContainEqual(people);
        if (switched[name]) expect(people, `${name} went back to the old companies`).toEqual(after);
        switched[name] ||= people.join() === after.join();
      }
      await sleep(100);
    }
    for (const { name, call } of instances) expect(idsOf((await list(call, token, filter)).body), `${name} after CREDENTIAL_CACHE_MS`).toEqual(after);
  }

  it('follows grants and revocations of companies exactly, listings, totals and rollups alike', async () => {
    const id = await credentialId(tokens.both);
    // acme-corp + globex see Émile and Ana; with secret-co also Hidden; globex + secret-co see Émile and Hidden.
    await expectFollowed(tokens.both, () => grantCompanies(database.db, id, ['secret-co']), sorted(ids.emile, ids.ana), sorted(ids.emile, ids.ana, ids.hidden));
    await expectFollowed(
      tokens.both,
      () => revokeCompanies(database.db, id, ['acme-corp']),
      sorted(ids.emile, ids.ana, ids.hidden),
      sorted(ids.emile, ids.hidden),
    );
    // Name searches and created ranges (partial days counted exactly) follow the same set.
    await expectFollowed(tokens.both, () => grantCompanies(database.db, id, ['acme-corp']), sorted(ids.emile), sorted(ids.emile, ids.ana), {
      createdFrom: '2023-01-01T12:00:00Z',
    });
    await expectFollowed(
      tokens.both,
      () => revokeCompanies(database.db, id, ['globex', 'secret-co']),
      sorted(ids.emile, ids.ana, ids.hidden),
      sorted(ids.emile, ids.ana),
      { lastName: 'dur' },
    );

    // The credential's rollup is its companies' people, counted from scratch.
    const current = (await findActiveCredential(database.db, hashToken(tokens.both)))!;
    expect(current.companyList).toEqual(['acme-corp']);
    const rollup = await database.db.query('SELECT day::text, people FROM people_by_credential_day WHERE credential_id = $1 ORDER BY day', [
      current.companySetId,
    ]);
    const recount = await database.db.query(
      `SELECT utc_day(person_created_at)::text AS day, count(DISTINCT person_id)::int AS people FROM employees
        WHERE company_id = 'acme-corp' AND person_id IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    expect(rollup).toEqual(recount);
    // Hello follows too.
    for (const { call } of instances) {
      expect((await call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both })).status).toBe(200);
      expect((await call('GET', '/v1/companies/globex/hello', { token: tokens.both })).status).toBe(403);
    }
  }, 60_000);

  it('stops a credential at its expiry, on time, while both instances still cache it', async () => {
    const token = newToken();
    const expiresAt = new Date(Date.now() + 1_500);
    await insertCredential(database.db, { name: 'expiring', tokenHash: hashToken(token), companies: ['acme-corp'], ...readsEverything, expiresAt });
    for (const { call } of instances) expect(await statusOf(call, token)).toBe(200);
    const fetchedBy = Date.now();
    await sleep(expiresAt.getTime() - Date.now() + 100);
    for (const { name, call } of instances) expect(await statusOf(call, token), name).toBe(401);
    // Both answers came before either cache entry expired.
    expect(Date.now() - fetchedBy).toBeLessThan(CACHE_MS);
  });

  it('takes a changed expiry to both instances within CREDENTIAL_CACHE_MS, and then bites on time', async () => {
    const token = newToken();
    const id = await insertCredential(database.db, { name: 'later expiring', tokenHash: hashToken(token), companies: ['acme-corp'], ...readsEverything });
    for (const { call } of instances) expect(await statusOf(call, token)).toBe(200);
    const expiresAt = new Date(Date.now() + CACHE_MS + 1_000);
    await changeExpiry(database.db, id, expiresAt);
    await sleep(CACHE_MS + 200);
    // Cache entries renewed since carry the expiry...
    for (const { call } of instances) expect(await statusOf(call, token)).toBe(200);
    await sleep(expiresAt.getTime() - Date.now() + 100);
    // ...and stop at it, well before they would be looked up again.
    for (const { name, call } of instances) expect(await statusOf(call, token), name).toBe(401);
  });

  it('rotates a token: the new one works at once, the old one until the overlap ends, on time while cached', async () => {
    const oldToken = newToken();
    const id = await insertCredential(database.db, { name: 'rotating', tokenHash: hashToken(oldToken), companies: ['acme-corp'], ...readsEverything });
    for (const { call } of instances) expect(await statusOf(call, oldToken)).toBe(200);
    const overlapMs = CACHE_MS + 1_500;
    const { token: newOne, previousValidUntil } = await rotate(database.db, id, overlapMs);
    const end = previousValidUntil!.getTime();
    for (const { call } of instances) expect(await statusOf(call, newOne)).toBe(200);
    // Past CREDENTIAL_CACHE_MS every instance has looked the old token up again and knows
    // when its overlap ends; it works until then and stops at that instant.
    await sleep(CACHE_MS + 200);
    for (const { call } of instances) expect(await statusOf(call, oldToken)).toBe(200);
    await sleep(end - Date.now() + 100);
    for (const { name, call } of instances) {
      expect(await statusOf(call, oldToken), name).toBe(401);
      expect(await statusOf(call, newOne), name).toBe(200);
    }
  });

  it('ends the old token within CREDENTIAL_CACHE_MS when rotated without an overlap', async () => {
    const oldToken = newToken();
    const id = await insertCredential(database.db, { name: 'rotating at once', tokenHash: hashToken(oldToken), companies: ['acme-corp'], ...readsEverything });
    for (const { call } of instances) expect(await statusOf(call, oldToken)).toBe(200);
    const { token: newOne } = await rotate(database.db, id, 0);
    for (const { call } of instances) expect(await statusOf(call, newOne)).toBe(200);
    await sleep(CACHE_MS + 200);
    for (const { name, call } of instances) expect(await statusOf(call, oldToken), name).toBe(401);
  });
});

const sorted = (...people: string[]) => [...people].sort();
const idsOf = (body: { persons: { id: string }[] }) => body.persons.map((p) => p.id).sort();
