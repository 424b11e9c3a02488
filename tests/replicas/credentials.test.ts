import { afterAll, beforeAll, expect, it } from 'vitest';
import { changeFields, grantCompanies, rotate } from '../../server/access/credentialChanges.js';
import type { Database } from '../../server/db/engines/database.js';
import { insertCredential, revokeCredential } from '../../server/db/stores/credentials.js';
import { hashToken, newToken } from '../../server/domain/tokens.js';
import { CONFIRMATIONS_PER_SECOND } from '../../server/http/authenticate.js';
import type { ReplicatedCluster } from '../../support/replicatedCluster.js';
import { readsEverything } from '../fixtures/credentials.js';
import { ids, tokens } from '../fixtures/small.js';
import { type ReplicaSetup, replicatedSmallDataset } from '../helpers/replicaSetup.js';
import { describeReplication } from '../helpers/replicaSuite.js';
import type { ConfiguredServer } from '../helpers/server.js';

describeReplication('credentials across replication lag', () => {
  let setup: ReplicaSetup;
  let cluster: ReplicatedCluster;
  let primary: Database;
  let server: ConfiguredServer;
  const hello = (company: string, token: string) => server.call('GET', `/v1/companies/${company}/hello`, { token });
  const search = (body: object, token: string) => server.call('POST', '/v1/persons/search', { token, body });
  const personIds = (res: { body: any }) => res.body.persons.map((p: any) => p.id);

  /** `work` runs while the standby replays nothing: whatever it commits on the primary, the standby lacks. */
  async function whilePaused(work: () => Promise<void>) {
    await cluster.pauseReplay();
    try {
      await work();
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.caughtUp();
  }

  beforeAll(async () => {
    setup = await replicatedSmallDataset();
    ({ cluster, primary } = setup);
    server = await setup.start({
      // The standby stays in use however long replay is paused here.
      REPLICA_MAX_LAG_MS: '600000',
      // Every company list joined with credential_companies: a set the standby lacks reads as empty there.
      PG_INLINE_COMPANIES_MAX: '0',
    });
  });
  afterAll(() => setup?.close());

  it('serves a credential created on the primary at once, its reads where its company set is', async () => {
    await whilePaused(async () => {
      const token = newToken();
      await insertCredential(primary, { name: 'created during lag', tokenHash: hashToken(token), companies: ['acme-corp', 'globex'], ...readsEverything });
      expect((await hello('globex', token)).status).toBe(200);
      const found = await search({ lastName: 'dur' }, token);
      expect(found.status).toBe(200);
      expect(personIds(found)).toEqual([ids.ana, ids.emile]);
      expect((await server.call('GET', `/v1/persons/${ids.emile}`, { token })).status).toBe(200);
    });
  });

  it('serves a rotated token at once', async () => {
    const token = newToken();
    const id = await insertCredential(primary, { name: 'to rotate', tokenHash: hashToken(token), companies: ['acme-corp'], ...readsEverything });
    await cluster.caughtUp();
    expect((await hello('acme-corp', token)).status).toBe(200);
    await whilePaused(async () => {
      const rotation = await rotate(primary, id, 0);
      expect((await hello('acme-corp', rotation.token)).status).toBe(200);
      expect(personIds(await search({ companyId: 'acme-corp' }, rotation.token))).toEqual([ids.ana, ids.emile]);
    });
  });

  it('serves a company granted on the primary at once, to a credential cached from the standby', async () => {
    const token = newToken();
    const id = await insertCredential(primary, { name: 'to grant', tokenHash: hashToken(token), companies: ['acme-corp'], ...readsEverything });
    await cluster.caughtUp();
    expect((await hello('acme-corp', token)).status).toBe(200); // cached now, as the standby has it
    expect((await hello('globex', token)).status).toBe(403);
    await whilePaused(async () => {
      await grantCompanies(primary, id, ['globex']);
      expect((await hello('globex', token)).status).toBe(200);
      const globex = await search({ companyId: 'globex' }, token);
      expect(personIds(globex)).toEqual([ids.emile]);
      expect(globex.body.persons[0].employments.map((e: any) => e.companyId)).toEqual(['globex', 'acme-corp']);
      // A company the primary does not grant either stays 403.
      expect((await hello('secret-co', token)).status).toBe(403);
    });
  });

  it('serves a field group granted on the primary at once, to a credential cached from the standby', async () => {
    const token = newToken();
    const fields = { fields: ['name', 'email'] as const, purpose: 'tests: a scheduling tool, later given phones' };
    const id = await insertCredential(primary, { name: 'to widen', tokenHash: hashToken(token), companies: ['acme-corp', 'globex'], ...fields });
    await cluster.caughtUp();
    expect((await search({ lastName: 'dur' }, token)).body.withheld).toContain('phone'); // cached now, as the standby has it
    expect((await search({ phone: '(415) 555-0132' }, token)).status).toBe(403);
    await whilePaused(async () => {
      await changeFields(primary, id, ['name', 'email', 'phone']);
      const found = await search({ phone: '(415) 555-0132' }, token);
      expect(found.status).toBe(200);
      expect(personIds(found)).toEqual([ids.emile]);
      expect(found.body.withheld).not.toContain('phone');
      // A group the primary does not grant either stays 403.
      expect((await search({ externalIdSystems: ['payroll'] }, token)).status).toBe(403);
    });
  });

  it('does not pass a flood of bad tokens on to the primary: each is asked once, and at most a budget per second', async () => {
    const bad = Array.from({ length: CONFIRMATIONS_PER_SECOND * 3 }, (_, i) => `plk_flood_${i}_${newToken()}`);
    const started = Date.now();
    const statuses = await Promise.all(bad.map((token) => hello('acme-corp', token).then((r) => r.status)));
    const seconds = (Date.now() - started) / 1000;
    const refused = statuses.filter((s) => s === 401).length;
    expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
    // Each 401 took a question to the primary; the budget bounds them.
    expect(refused).toBeLessThanOrEqual(CONFIRMATIONS_PER_SECOND * (1 + seconds) + 1);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    // The ones asked are cached: asked again, they are 401 without a question (the budget is spent).
    const asked = bad.filter((_, i) => statuses[i] === 401);
    for (const token of asked.slice(0, 5)) expect((await hello('acme-corp', token)).status).toBe(401);
  });

  it('stops a revoked credential within the lag plus the credential cache', async () => {
    const cached = await setup.start({ REPLICA_MAX_LAG_MS: '600000', CREDENTIAL_CACHE_MS: '300' });
    try {
      const token = newToken();
      const id = await insertCredential(primary, { name: 'to revoke', tokenHash: hashToken(token), companies: ['acme-corp'], ...readsEverything });
      await cluster.caughtUp();
      const call = () => cached.call('GET', '/v1/companies/acme-corp/hello', { token });
      expect((await call()).status).toBe(200);
      await cluster.pauseReplay();
      try {
        await revokeCredential(primary, id);
        // The standby has not replayed the revocation: past the cache, it still says yes.
        await new Promise((r) => setTimeout(r, 400));
        expect((await call()).status).toBe(200);
      } finally {
        await cluster.resumeReplay();
      }
      await cluster.caughtUp();
      await new Promise((r) => setTimeout(r, 400));
      expect((await call()).status).toBe(401);
    } finally {
      await cached.close();
    }
  });

  it('keeps a token the primary knows working for the standby as it was: tokens.both, never re-asked', async () => {
    expect((await hello('globex', tokens.both)).status).toBe(200);
    expect(personIds(await search({ lastName: 'dur' }, tokens.both))).toEqual([ids.ana, ids.emile]);
  });
});
