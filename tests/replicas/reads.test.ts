// The service reading from a real hot standby (DATABASE_REPLICA_URLS): the person
// operations answer as they do on the primary, from the standby.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { openDatabase } from '../../server/db/openDatabase.js';
import { importRecords } from '../../server/importing/index.js';
import { employee, ids, smallDataset, tokens } from '../fixtures/small.js';
import { type ConfiguredServer, startConfiguredServer } from '../hardening/support/configuredServer.js';
import { type ReplicatedCluster, startReplicatedCluster } from './support/cluster.js';
import { describeReplication } from './support/suite.js';

const newcomer = '7e57c0de-0000-4000-8000-000000000001';

describeReplication('reads from a hot standby', () => {
  let cluster: ReplicatedCluster;
  let primary: Database;
  let server: ConfiguredServer;
  let spoolDir: string;
  const search = (body: object, token = tokens.both) => server.call('POST', '/v1/persons/search', { token, body });

  beforeAll(async () => {
    cluster = await startReplicatedCluster();
    primary = await openDatabase({ databaseUrl: cluster.primary.url });
    await migrate(primary);
    await importRecords(primary, smallDataset(), 'US');
    await cluster.caughtUp();
    spoolDir = mkdtempSync(join(tmpdir(), 'audit-spool-replica-'));
    server = await startConfiguredServer({ DATABASE_URL: cluster.primary.url, DATABASE_REPLICA_URLS: cluster.standby.url, AUDIT_SPOOL_DIR: spoolDir });
  });
  afterAll(async () => {
    await server?.close();
    await primary?.close();
    await cluster?.destroy();
    if (spoolDir) rmSync(spoolDir, { recursive: true, force: true });
  });

  it('answers from the standby: what it has not replayed is not in the answer, until it has', async () => {
    const before = await search({ lastName: 'dur' });
    expect(before.status).toBe(200);
    expect(before.body.persons.map((p: any) => p.id)).toEqual([ids.ana, ids.emile]);
    await cluster.pauseReplay();
    try {
      await importRecords(
        primary,
        [
          { type: 'person', id: newcomer, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' },
          employee({ id: '7e57c0de-0000-4000-8000-000000000002', companyId: 'acme-corp', personId: newcomer, lastName: 'Durance' }),
        ],
        'US',
      );
      expect((await search({ lastName: 'dur' })).body.pagination.total).toBe(2);
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.caughtUp();
    expect((await search({ lastName: 'dur' })).body.pagination.total).toBe(3);
  });
});
