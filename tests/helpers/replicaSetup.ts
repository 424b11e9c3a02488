// What every replica test file starts from: its own primary holding the small dataset,
// a standby that has replayed it, and services on them, all removed after the file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { importRecords } from '../../server/importing/index.js';
import { type ReplicatedCluster, startReplicatedCluster } from '../../support/replicatedCluster.js';
import { smallDataset } from '../fixtures/small.js';
import { type ConfiguredServer, startConfiguredServer } from './server.js';

export interface ReplicaSetup {
  cluster: ReplicatedCluster;
  /** The primary's database, as the service's writers see it. */
  primary: Database;
  /** The services' access audit spool directory. */
  spoolDir: string;
  /** A service on the primary reading from the standby; `env` adds to or overrides that. Closed with the setup. */
  start(env?: Record<string, string>): Promise<ConfiguredServer>;
  close(): Promise<void>;
}

export async function replicatedSmallDataset(): Promise<ReplicaSetup> {
  const cluster = await startReplicatedCluster();
  const primary = await openDatabase({ databaseUrl: cluster.primary.url });
  const spoolDir = mkdtempSync(join(tmpdir(), 'audit-spool-replica-'));
  const servers: ConfiguredServer[] = [];
  const close = async () => {
    cluster.standby.thaw();
    await Promise.all(servers.map((s) => s.close()));
    await primary.close();
    await cluster.destroy();
    rmSync(spoolDir, { recursive: true, force: true });
  };
  try {
    await migrate(primary);
    await importRecords(primary, smallDataset(), 'US');
    await cluster.caughtUp();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    cluster,
    primary,
    spoolDir,
    async start(env = {}) {
      const server = await startConfiguredServer({
        DATABASE_URL: cluster.primary.url,
        DATABASE_REPLICA_URLS: cluster.standby.url,
        AUDIT_SPOOL_DIR: spoolDir,
        ...env,
      });
      // Closed by the test or with the setup, whichever comes first; once.
      let closing: Promise<void> | undefined;
      const closeOnce = () => (closing ??= server.close());
      const tracked = { ...server, close: closeOnce };
      servers.push(tracked);
      return tracked;
    },
    close,
  };
}
