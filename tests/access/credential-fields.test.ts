// A credential's field groups and purpose changed while two instances serve it (one in a
// process of its own, one in this one, sharing one PostgreSQL, as behind a load balancer):
// `set-fields` and `set-purpose`, run as an operator runs them, reach both within
// CREDENTIAL_CACHE_MS. What each instance read with shows in its answers (`withheld`) and
// its audit entries (spool, the default on PostgreSQL), which agree read by read: every
// read is under the credential as it was before, between the two commands, or after,
// whole; once an instance reads with the new one it never goes back; and past
// CREDENTIAL_CACHE_MS both do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOfCredential } from '../../server/db/stores/accessAudit.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { isFieldGroup, withheldGroups } from '../../server/domain/fieldGroups.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { ids, smallDataset } from '../fixtures/small.js';
import { type Call, contractCall } from '../helpers/call.js';
import { type ChildServer, startChildServer } from '../helpers/childServer.js';
import { runCommand } from '../helpers/commands.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseUrl } from '../helpers/environment.js';
import { type ConfiguredServer, startConfiguredServer } from '../helpers/server.js';

const CACHE_MS = 3_000;
const token = 'plk_test_fields_two_instances_01';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!databaseUrl) {
  describe.skip('credential fields and purpose on two instances (set DATABASE_URL to run)', () => it('skipped', () => {}));
}

describe.runIf(databaseUrl)('credential fields and purpose on two instances sharing PostgreSQL', () => {
  let database: ThrowawayDatabase;
  let a: ChildServer;
  let b: ConfiguredServer;
  /** Each instance reads its own person, so that its audit entries are its own. */
  let instances: { name: string; call: Call; reads: string; withheld: (string[] | undefined)[] }[];
  beforeAll(async () => {
    database = await throwawayDatabase('postgres');
    await importRecords(
      database.db,
      [
        ...smallDataset(),
        { type: 'credential', name: 'scheduler', token, companies: ['acme-corp', 'globex'], fields: ['name', 'email'], purpose: 'shift scheduling' },
      ],
      'US',
    );
    const env = {
      DATABASE_URL: database.url!,
      CREDENTIAL_CACHE_MS: String(CACHE_MS),
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      DEMO_DATA: 'false',
    };
    [a, b] = await Promise.all([startChildServer(env), startConfiguredServer(env)]);
    instances = [
      { name: 'a', call: contractCall(a.url), reads: ids.emile, withheld: [] },
      { name: 'b', call: b.call, reads: ids.ana, withheld: [] },
    ];
  }, 120_000);
  afterAll(async () => {
    await a?.stop();
    await b?.close();
    await database?.drop();
  });

  /** Each instance reads its person; what its answer withheld is kept, read by read. */
  const readAll = async () => {
    for (const { call, reads, withheld } of instances) {
      const res = await call('GET', `/v1/persons/${reads}`, { token });
      expect(res.status).toBe(200);
      withheld.push(res.body.withheld);
    }
  };

  it('reaches both within CREDENTIAL_CACHE_MS, each read under one version of the credential, never an older one after a newer', async () => {
    const id = (await findActiveCredential(database.db, hashToken(token)))!.id;
    await readAll();
    const env = { ...process.env, DATABASE_URL: database.url! };
    expect((await runCommand('credentials', ['set-fields', id, 'name,email,phone'], env)).code).toBe(0);
    expect((await runCommand('credentials', ['set-purpose', id, 'shift scheduling and SMS reminders'], env)).code).toBe(0);
    const changedAt = Date.now();
    let calls = 1;
    while (Date.now() - changedAt < CACHE_MS + 1_500) {
      await readAll();
      calls++;
      await sleep(100);
    }
    await readAll();
    calls++;

    // Shipped: this instance's now; the other's within its ship interval.
    await b.auditShipped();
    let entries = await auditOfCredential(database.db, id);
    for (let waited = 0; entries.length < 2 * calls && waited < 10_000; waited += 100) {
      await sleep(100);
      entries = await auditOfCredential(database.db, id);
    }
    expect(entries).toHaveLength(2 * calls);
    const versions = ['name,email | shift scheduling', 'name,email,phone | shift scheduling', 'name,email,phone | shift scheduling and SMS reminders'];
    for (const { name, reads, withheld } of instances) {
      const own = entries.filter((e) => e.personIds[0] === reads);
      // Each answer withheld exactly the groups its entry says the credential lacked.
      expect(withheld, `${name}: answers and entries agree`).toEqual(own.map((e) => withheldGroups((e.fields ?? []).filter(isFieldGroup))));
      expect(withheld[0], `${name} before the change`).toContain('phone');
      const seen = own.map((e) => versions.indexOf(`${e.fields!.join(',')} | ${e.purpose}`));
      expect(seen, `${name}: every entry is one version of the credential`).not.toContain(-1);
      expect(seen, `${name}: never an older version after a newer one`).toEqual([...seen].sort());
      expect(seen[0], `${name} before the change`).toBe(0);
      expect(seen.at(-1), `${name} past CREDENTIAL_CACHE_MS`).toBe(2);
    }
  }, 60_000);
});
