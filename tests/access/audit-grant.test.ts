// Every access-audit entry records why the read was allowed: the purpose and field groups
// of the credential the response was read with, for every audited operation (Search
// persons, its exact lookups, Get person and its 404, Search employees), in every
// durability mode, on each engine; and still no personal value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditDurability } from '../../server/config.js';
import { auditOfCredential } from '../../server/db/stores/accessAudit.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { withheldGroups } from '../../server/domain/fieldGroups.js';
import { hashToken } from '../../server/domain/tokens.js';
import { ids, smallDataset } from '../fixtures/small.js';
import type { CallResult } from '../helpers/call.js';
import { engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const token = 'plk_test_audit_grant_scheduler_1';
const scheduler = {
  type: 'credential' as const,
  name: 'scheduler',
  token,
  companies: ['acme-corp', 'globex'],
  fields: ['email', 'name'],
  purpose: 'shift scheduling: invites staff by name and email',
};
const modes: [string, AuditDurability][] = engines.flatMap((engine) =>
  engine === 'postgres'
    ? [
        ['postgres', 'spool'],
        ['postgres', 'commit'],
      ]
    : [['pglite', 'commit']],
) as [string, AuditDurability][];

describe.each(modes)('the audit records the purpose and field groups on %s, AUDIT_DURABILITY=%s', (engine, durability) => {
  let server: TestServer;
  let credentialId: string;
  let answers: CallResult[];
  beforeAll(async () => {
    server = await startTestServer({
      engine: engine as 'pglite' | 'postgres',
      records: [...smallDataset(), scheduler],
      // (spool is PostgreSQL's default; set explicitly, the configuration would want DATABASE_URL, which the test server hands in as a database.)
      env: durability === 'spool' ? {} : { AUDIT_DURABILITY: durability },
    });
    credentialId = (await findActiveCredential(server.database.db, hashToken(token)))!.id;
    answers = await Promise.all([
      server.call('POST', '/v1/persons/search', { token, body: { lastName: 'durand' } }),
      server.call('POST', '/v1/persons/search', { token, body: { personId: ids.ana } }),
      server.call('GET', `/v1/persons/${ids.emile}`, { token }),
      server.call('GET', `/v1/persons/${ids.hidden}`, { token }),
      server.call('POST', '/v1/employees/search', { token, body: {} }),
    ]);
  });
  afterAll(() => server?.close());

  it('answers with the groups the import gave the credential', () => {
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 404, 200]);
    for (const r of answers.filter((r) => r.status === 200)) expect(r.body.withheld).toEqual(withheldGroups(['name', 'email']));
  });

  it('with every entry of every audited operation', async () => {
    await server.auditShipped();
    const entries = await auditOfCredential(server.database.db, credentialId);
    expect(entries.map((e) => e.operation).sort()).toEqual(['getPerson', 'getPerson', 'searchEmployees', 'searchPersons', 'searchPersons']);
    for (const e of entries) expect({ purpose: e.purpose, fields: e.fields }).toEqual({ purpose: scheduler.purpose, fields: ['name', 'email'] });
  });
});
