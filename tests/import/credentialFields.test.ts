// A `credential` record's field groups and purpose, on each engine: both required, the
// groups read by the one reading of a field list (server/domain/fieldGroups.ts) and stored
// expanded in that list's order, the purpose one line by the credential rule; a change of
// either is a change of the credential. A bad record is named with its line, and nothing
// of its file is written.
import { describe, expect, it } from 'vitest';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { everyField } from '../../server/domain/fieldGroups.js';
import { hashToken } from '../../server/domain/tokens.js';
import { ImportRejected, importRecords, importText } from '../../server/importing/index.js';
import type { CredentialRecord } from '../../server/importing/records.js';
import { engines, useThrowawayDatabase } from '../helpers/databases.js';

const token = 'plk_test_fields_and_purpose_01';
const record = (overrides: Partial<CredentialRecord> = {}): CredentialRecord => ({
  type: 'credential',
  name: 'scheduling',
  token,
  companies: ['acme-corp'],
  fields: ['email', 'name'],
  purpose: 'shift scheduling',
  ...overrides,
});

describe.each(engines)('credential records with fields and purpose on %s', (engine) => {
  const database = useThrowawayDatabase(engine);
  const stored = async () => (await findActiveCredential(database.db, hashToken(token)))!;

  it('stores the groups in the list order, `all` expanded, and a change of either as a change', async () => {
    expect((await importRecords(database.db, [record()], 'US')).credential).toMatchObject({ added: 1 });
    expect(await stored()).toMatchObject({ fields: ['name', 'email'], purpose: 'shift scheduling' });
    // The same groups in another order, or one named twice, are the same set.
    expect((await importRecords(database.db, [record({ fields: ['name', 'email', 'name'] })], 'US')).credential).toMatchObject({ unchanged: 1 });
    expect((await importRecords(database.db, [record({ fields: ['all'] })], 'US')).credential).toMatchObject({ changed: 1 });
    expect((await stored()).fields).toEqual(everyField);
    expect((await importRecords(database.db, [record({ fields: ['all'], purpose: 'rota planning' })], 'US')).credential).toMatchObject({ changed: 1 });
    expect((await stored()).purpose).toBe('rota planning');
  });

  it('refuses a record without either, or with a list or purpose it cannot take, naming each; nothing is written', async () => {
    const line = (r: object) => JSON.stringify(r);
    const { fields: _fields, ...noFields } = record({ token: 'plk_test_no_fields_000000001' });
    const { purpose: _purpose, ...noPurpose } = record({ token: 'plk_test_no_purpose_00000001' });
    const file = [
      line({ type: 'company', id: 'fields-co', name: 'Fields' }),
      line(noFields),
      line(noPurpose),
      line(record({ fields: [] })),
      line(record({ fields: ['name', 'nmae', 'phones'] })),
      line(record({ fields: ['all', 'name'] })),
      line({ ...record(), fields: 'all' }),
      line(record({ purpose: '   ' })),
      line(record({ purpose: 'p'.repeat(501) })),
      line(record({ purpose: 'reads\nnames' })),
      line(record({ purpose: 'not recorded (created before purposes)' })),
    ].join('\n');
    const error = await importText(database.db, file, 'US').catch((e) => e);
    expect(error).toBeInstanceOf(ImportRejected);
    const oneLine = 'must hold a character other than a space, and no control character (a newline, a tab, an escape)';
    expect(error.problems.map((p: { line: number; record: string; message: string }) => `${p.line} ${p.record}: ${p.message}`)).toEqual([
      `2 credential "scheduling": / must have required property 'fields': the field groups the credential reads: ["name", "email"], or ["all"]`,
      `3 credential "scheduling": / must have required property 'purpose': one line saying why the credential reads personal data`,
      '4 credential "scheduling": /fields no field group given: name some of name, dateOfBirth, gender, email, phone, address, externalIds, membership, participation, coverage, or all',
      '5 credential "scheduling": /fields unknown field group "nmae", "phones": the groups are name, dateOfBirth, gender, email, phone, address, externalIds, membership, participation, coverage, or all',
      '6 credential "scheduling": /fields all names every group: give it alone',
      '7 credential "scheduling": /fields must be array',
      `8 credential "scheduling": /purpose ${oneLine}`,
      '9 credential "scheduling": /purpose must NOT have more than 500 characters',
      `10 credential "scheduling": /purpose ${oneLine}`,
      '11 credential "scheduling": /purpose "not recorded (created before purposes)" marks credentials created before purposes: say why this one reads personal data',
    ]);
    expect(await database.db.query(`SELECT 1 FROM companies WHERE id = 'fields-co'`)).toEqual([]);
  });
});
