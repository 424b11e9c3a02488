// Migration 006 on a database that has credentials and audit entries: every credential
// keeps reading every group it read (all of them, stored expanded) under the purpose
// that says none was given, which `credentials list` marks for review; audit entries
// written before it say nothing of a purpose or groups (null), and nothing new defaults.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/schema/migrate.js';
import { describeStructure } from '../../server/db/schema/structure.js';
import { findActiveCredential, listCredentials } from '../../server/db/stores/credentials.js';
import { MIGRATED_PURPOSE } from '../../server/domain/credentials.js';
import { everyField } from '../../server/domain/fieldGroups.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const MIGRATION = '006_credential_fields_and_purpose.sql';
const committed = readFileSync(new URL('../../server/db/schema/structure.sql', import.meta.url), 'utf8');
const credential = '00000000-0000-4000-8000-0000000000c1';

describe.each(engines)('migration 006 on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    const { db } = database;
    // The database as it stood before 006: neither column, a credential and an audit entry written then.
    await db.query('ALTER TABLE credentials DROP COLUMN fields, DROP COLUMN purpose');
    await db.query('ALTER TABLE access_audit DROP COLUMN purpose, DROP COLUMN fields');
    await db.query('DELETE FROM schema_migrations WHERE version = $1', [MIGRATION]);
    await db.query(`INSERT INTO credentials (id, name, token_hash) VALUES ($1, 'from before', '\\x0c01')`, [credential]);
    await db.query(`INSERT INTO access_audit (at, credential_id, operation, person_ids) VALUES (now(), $1, 'searchPersons', '{}')`, [credential]);
    expect(await migrate(db)).toEqual([MIGRATION]);
  }, 60_000);
  afterAll(() => database?.drop());

  it('gives the schema a fresh database has', async () => {
    expect(await describeStructure(database.db)).toBe(committed);
  });

  it('lets every credential read every group, under the purpose that marks it for review', async () => {
    const [listed] = await listCredentials(database.db);
    expect(listed).toMatchObject({ id: credential, fields: everyField, purpose: MIGRATED_PURPOSE });
    const found = await findActiveCredential(database.db, Buffer.from('0c01', 'hex'));
    expect(found).toMatchObject({ fields: everyField, purpose: MIGRATED_PURPOSE });
  });

  it('leaves older audit entries without a purpose or groups', async () => {
    expect(await database.db.query('SELECT purpose, fields FROM access_audit')).toEqual([{ purpose: null, fields: null }]);
  });

  it('gives no default to a credential written after it: fields and purpose are required', async () => {
    const hash = Buffer.from('0c02', 'hex');
    await expect(
      database.db.query(`INSERT INTO credentials (id, name, token_hash, purpose) VALUES (gen_random_uuid(), 'later', $1, 'why')`, [hash]),
    ).rejects.toThrow(/null value in column "fields"/);
    await expect(
      database.db.query(`INSERT INTO credentials (id, name, token_hash, fields) VALUES (gen_random_uuid(), 'later', $1, '{name}')`, [hash]),
    ).rejects.toThrow(/null value in column "purpose"/);
    for (const [fields, purpose, constraint] of [
      [[], 'a purpose', 'credentials_fields_named'],
      [['name'], '   ', 'credentials_purpose_given'],
      [['name'], 'p'.repeat(501), 'credentials_purpose_given'],
    ] as const)
      await expect(
        database.db.query('INSERT INTO credentials (id, name, token_hash, fields, purpose) VALUES (gen_random_uuid(), $1, $2, $3, $4)', [
          'later',
          Buffer.from('0c03', 'hex'),
          fields,
          purpose,
        ]),
      ).rejects.toThrow(constraint);
  });
});
