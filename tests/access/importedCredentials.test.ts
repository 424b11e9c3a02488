// Credential records in an import and the company sets of the credential lifecycle, on each
// engine: an import compares a stored credential with its current set (whatever `grant` or
// `revoke-company` made it), changes its companies by a new set like any change, and can
// delete a company that only replaced sets still name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCompanies } from '../../server/access/credentialChanges.js';
import { derivedDataAndRebuild } from '../../server/db/derived/index.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { recordReadsEverything } from '../fixtures/credentials.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe.each(engines)('imported credentials and company sets on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine, records: smallDataset(), env: { CREDENTIAL_CACHE_MS: '0' } });
  });
  afterAll(() => server?.close());

  const db = () => server.database.db;
  const both = (companies: string[]): ImportRecord => ({
    type: 'credential',
    name: 'acme and globex',
    token: tokens.both,
    companies,
    ...recordReadsEverything,
  });
  const total = async () => (await server.call('POST', '/v1/persons/search', { token: tokens.both, body: {} })).body.pagination.total;
  const expectDerivedDataExact = async () => {
    const { kept, rebuilt } = await derivedDataAndRebuild(db());
    expect(kept).toEqual(rebuilt);
  };

  it("changes a granted credential's companies from the set it has now", async () => {
    const credential = (await findActiveCredential(db(), hashToken(tokens.both)))!;
    await grantCompanies(db(), credential.id, ['secret-co']);
    expect(await total()).toBe(3); // Émile, Ana, and the person only secret-co employs

    const summary = await importRecords(db(), [both(['acme-corp'])], { defaultPhoneRegion: 'US' });
    expect(summary.credential).toMatchObject({ changed: 1 });
    expect((await findActiveCredential(db(), hashToken(tokens.both)))!.companyList).toEqual(['acme-corp']);
    expect(await total()).toBe(2);

    const again = await importRecords(db(), [both(['acme-corp'])], { defaultPhoneRegion: 'US' });
    expect(again.credential).toMatchObject({ unchanged: 1, changed: 0 });
    await expectDerivedDataExact();
  });

  it('deletes a company that only replaced company sets still name', async () => {
    const summary = await importRecords(
      db(),
      [
        { type: 'delete', record: 'employee', id: ids.emileGlobex },
        { type: 'delete', record: 'company', id: 'globex' },
      ],
      { defaultPhoneRegion: 'US' },
    );
    expect(summary.company).toMatchObject({ deleted: 1 });
    const [{ n }] = (await db().query<{ n: number }>("SELECT count(*)::int AS n FROM credential_companies WHERE company_id = 'globex'")) as [{ n: number }];
    expect(n).toBe(0);
    expect(await total()).toBe(2);
    await expectDerivedDataExact();
  });
});
