// A credential's last use: noted in memory per request, written in one statement a
// minute (and at shutdown), never on the request path, and never failing a request.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rotate } from '../../server/access/credentialChanges.js';
import { LastUseRecorder } from '../../server/access/lastUse.js';
import { findActiveCredential, listCredentials } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { createLogger } from '../../server/observability/logger.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(engines)('credential last use on %s', (engine) => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ engine, records: smallDataset() });
    // Counts row updates of credentials, per credential.
    await server.database.db.query('CREATE TABLE credential_updates_for_test (id uuid)');
    await server.database.db.query(
      `CREATE FUNCTION count_credential_updates_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO credential_updates_for_test VALUES (NEW.id); RETURN NULL; END $$`,
    );
    await server.database.db.query(
      'CREATE TRIGGER count_credential_updates_for_test AFTER UPDATE ON credentials FOR EACH ROW EXECUTE FUNCTION count_credential_updates_for_test()',
    );
  });
  afterEach(async () => {
    await server.app.close(); // again, where a test closed it already: a no-op
    await server.database.drop();
  });
  const db = () => server.database.db;
  const updates = async () => (await db().query<{ id: string }>('SELECT id::text FROM credential_updates_for_test')).map((r) => r.id).sort();
  const lastUse = async (name: string) => (await listCredentials(db())).find((c) => c.name === name)!;

  it('writes nothing per request, then each used credential once with its latest use', async () => {
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      expect((await server.call('GET', `/v1/persons/${ids.emile}`, { token: i % 2 ? tokens.both : tokens.acme })).status).toBe(200);
    }
    const ended = Date.now();
    expect(await updates()).toEqual([]);
    await server.app.close(); // a shutdown writes what is pending
    const both = (await findActiveCredential(db(), hashToken(tokens.both)))!.id;
    const acme = (await findActiveCredential(db(), hashToken(tokens.acme)))!.id;
    expect(await updates()).toEqual([both, acme].sort());
    for (const name of ['acme and globex', 'acme only']) {
      const used = (await lastUse(name)).lastUsedAt!.getTime();
      expect(used).toBeGreaterThanOrEqual(started);
      expect(used).toBeLessThanOrEqual(ended);
    }
    expect((await lastUse('no companies')).lastUsedAt).toBeNull();
  });

  it("tells a replaced token's use during its overlap from the current token's", async () => {
    const id = (await findActiveCredential(db(), hashToken(tokens.acme)))!.id;
    const { token } = await rotate(db(), id, 3_600_000);
    expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token })).status).toBe(200);
    await server.app.close();
    let c = await lastUse('acme only');
    expect(c.lastUsedAt).not.toBeNull();
    expect(c.previousTokenLastUsedAt).toBeNull();

    const recorder = new LastUseRecorder(db(), createLogger('silent'));
    recorder.record((await findActiveCredential(db(), hashToken(tokens.acme)))!); // the replaced token, in its overlap
    await recorder.close();
    c = await lastUse('acme only');
    expect(c.previousTokenLastUsedAt!.getTime()).toBe(c.lastUsedAt!.getTime());
  });

  it('never fails a request when the write fails, and writes the uses with the next write', async () => {
    await db().query(`CREATE FUNCTION refuse_credential_updates_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no'; END $$`);
    await db().query(
      'CREATE TRIGGER refuse_credential_updates_for_test BEFORE UPDATE ON credentials FOR EACH STATEMENT EXECUTE FUNCTION refuse_credential_updates_for_test()',
    );
    const recorder = new LastUseRecorder(db(), createLogger('silent'));
    recorder.record((await findActiveCredential(db(), hashToken(tokens.both)))!);
    await recorder.flush(); // fails, logged, kept
    expect((await lastUse('acme and globex')).lastUsedAt).toBeNull();
    for (let i = 0; i < 5; i++) expect((await server.call('POST', '/v1/persons/search', { token: tokens.both, body: {} })).status).toBe(200);
    await db().query('DROP TRIGGER refuse_credential_updates_for_test ON credentials');
    await recorder.close();
    expect((await lastUse('acme and globex')).lastUsedAt).not.toBeNull();
  });
});
