// Changes of a credential's companies, on the database: a new company set with its own
// rollup each time, the old set kept whole until housekeeping removes it, and concurrent
// changes of one credential that all land.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { grantCompanies, revokeCompanies } from '../../server/access/credentialChanges.js';
import { Housekeeping } from '../../server/access/housekeeping.js';
import { findActiveCredential, removeReplacedCompanySets } from '../../server/db/stores/credentials.js';
import { withHousekeepingLock } from '../../server/db/stores/housekeeping.js';
import { hashToken } from '../../server/domain/tokens.js';
import { createLogger } from '../../server/observability/logger.js';
import { tokens } from '../fixtures/small.js';
import { engines, useThrowawayDatabase } from '../helpers/databases.js';

describe.each(engines)('credential company changes on %s', (engine) => {
  const database = useThrowawayDatabase(engine);
  const db = () => database.db;
  const held = async (token: string) => (await findActiveCredential(db(), hashToken(token)))!;
  const rollup = async (setId: string) =>
    (await db().query<{ people: number }>('SELECT coalesce(sum(people), 0)::int AS people FROM people_by_credential_day WHERE credential_id = $1', [setId]))[0]!
      .people;
  const setRows = async (setId: string) =>
    (await db().query<{ company_id: string }>('SELECT company_id FROM credential_companies WHERE credential_id = $1 ORDER BY 1', [setId])).map(
      (r) => r.company_id,
    );

  it('makes a new set with its own rollup, and keeps the old one whole until housekeeping removes it', async () => {
    const before = await held(tokens.both);
    expect(before.companySetId).toBe(before.id); // a credential's first set has its own id
    expect(await rollup(before.companySetId)).toBe(2);
    await grantCompanies(db(), before.id, ['secret-co']);
    const after = await held(tokens.both);
    expect(after.companySetId).not.toBe(before.companySetId);
    expect(after.companyList).toEqual(['acme-corp', 'globex', 'secret-co']);
    // The companies it lacks, which pick how its name searches read (db/persons/persons.ts).
    expect([before.companiesOutside, after.companiesOutside]).toEqual([1, 0]);
    expect(await rollup(after.companySetId)).toBe(3);
    // What a cache still holding the old credential reads is unchanged.
    expect(await setRows(before.companySetId)).toEqual(['acme-corp', 'globex']);
    expect(await rollup(before.companySetId)).toBe(2);

    // Housekeeping keeps it for two hours...
    expect((await new Housekeeping(db(), createLogger('silent'), 365, 30 * 86_400_000).runOnce()).companySetsRemoved).toBe(0);
    // ...and then removes its rows and its rollup, never the current set's.
    expect(await withHousekeepingLock(db(), (tx) => removeReplacedCompanySets(tx, 0))).toBe(1);
    expect(await setRows(before.companySetId)).toEqual([]);
    expect(await rollup(before.companySetId)).toBe(0);
    expect(await setRows(after.companySetId)).toEqual(['acme-corp', 'globex', 'secret-co']);
    expect(await rollup(after.companySetId)).toBe(3);
  });

  it('leaves the set as it was when nothing changes', async () => {
    const before = await held(tokens.acme);
    const change = await revokeCompanies(db(), before.id, ['globex']);
    expect(change).toEqual({ before: ['acme-corp'], after: ['acme-corp'], unchanged: ['globex'] });
    expect((await held(tokens.acme)).companySetId).toBe(before.companySetId);
  });

  it.runIf(engine === 'postgres')('lands every one of concurrent changes to one credential', async () => {
    const id = (await held(tokens.none)).id;
    await Promise.all([grantCompanies(db(), id, ['acme-corp']), grantCompanies(db(), id, ['globex']), grantCompanies(db(), id, ['secret-co'])]);
    const now = await held(tokens.none);
    expect(now.companyList).toEqual(['acme-corp', 'globex', 'secret-co']);
    expect(await rollup(now.companySetId)).toBe(3);
  });

  it.runIf(engine === 'postgres')('waits for a running import instead of deadlocking with it over the credential', async () => {
    const id = (await held(tokens.acme)).id;
    // An import holds the data writers' lock for its whole transaction and, when the file
    // has credential records, locks credential rows after it.
    const importing = new pg.Client({ connectionString: database.url });
    await importing.connect();
    try {
      await importing.query('BEGIN');
      await importing.query('SELECT lock_data_writers()');
      const granted = grantCompanies(db(), id, ['globex']);
      // The grant is now waiting on a lock (whichever it reached first)...
      while (!(await importing.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rowCount)
        await new Promise((resolve) => setTimeout(resolve, 20));
      // ...and the import goes on to lock the credential, then commits.
      await importing.query('SELECT 1 FROM credentials WHERE id = $1 FOR UPDATE', [id]);
      await importing.query('COMMIT');
      await expect(granted).resolves.toMatchObject({ after: ['acme-corp', 'globex'] });
    } finally {
      await importing.end();
    }
  });
});
