// `npm run bench -- --replica`: the service reading from a hot standby beside the same service
// reading from the primary, in one alternating run on one machine, then the routing measured
// alone. The bench makes its own primary and standby (support/replicatedCluster.ts), with
// durability on as in production, and its own dataset there; the machine's clusters are left alone.
import { loadConfig } from '../../server/config.js';
import type { Database, Queryable } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { findPersons } from '../../server/db/reads/queries.js';
import { nameReplicas, ReadRouter } from '../../server/db/replicas/readRouting.js';
import { startReplicatedCluster } from '../../support/replicatedCluster.js';
import { databaseBackendsCpu } from '../cpu.js';
import { ensureDataset } from '../dataset/build.js';
import { beginRun } from '../machine.js';
import type { BenchOptions } from '../options.js';
import { prewarm } from '../prewarm.js';
import { childEnv, type Running } from '../processes.js';
import { type AskedAs, askAs, helloAs, type PersonKind, personKinds, personWorkload } from '../scenarios.js';
import { comparedWith, compareSideBySide } from '../sideBySide.js';
import { median, round } from '../stats.js';
import { serviceTarget } from '../targets.js';
import { FROM_PRIMARY, FROM_REPLICA, type ReplicaRunResult } from './results.js';

/** Durability as in production (the tests' clusters turn it off), and room for the dataset. */
const BENCH_SETTINGS = `
fsync = on
full_page_writes = on
shared_buffers = '256MB'
max_wal_size = '4GB'
max_connections = 100
`;

export async function runReplicaBench(options: BenchOptions, log: (line: string) => void): Promise<ReplicaRunResult> {
  const run = beginRun();
  log('replicas: starting a primary and a hot standby of its own');
  const cluster = await startReplicatedCluster(BENCH_SETTINGS);
  const running: Running[] = [];
  try {
    const databaseUrl = cluster.primary.url.replace(/\/postgres$/, '/lookup_bench');
    const standbyUrl = cluster.standby.url.replace(/\/postgres$/, '/lookup_bench');
    const info = await ensureDataset({ engine: 'postgres', databaseUrl, people: options.replicaPeople, seed: options.postgres?.seed }, { log });
    const { scale } = info;
    const db = await openDatabase({ databaseUrl, poolMax: 2 });
    const standby = await openDatabase({ databaseUrl: standbyUrl, poolMax: 1 });
    try {
      const postgresVersion = (await db.query<{ version: string }>('SELECT version()'))[0]?.version;
      // Both caches hold what fits of the data, as on servers that have been running (the
      // standby has pg_prewarm once it has replayed the primary's CREATE EXTENSION).
      const primaryWarm = await prewarm(db);
      await cluster.caughtUp(600_000);
      if (!primaryWarm || !(await prewarm(standby, { createExtension: false }))) throw new Error('pg_prewarm failed on the primary or the standby');

      const asked = await askAs(db, info, 'oneLarge', options.samples);
      const ready = helloAs(asked.credential);
      const specs = [
        serviceTarget(FROM_REPLICA, { databaseUrl }, ready, { DATABASE_REPLICA_URLS: standbyUrl }),
        serviceTarget(FROM_PRIMARY, { databaseUrl }, ready),
      ];
      // Both servers' backends' CPU per request beside the service's own: steadier than req/s
      // on a shared host, and where the routing's cost would show.
      const databaseCpu = async () => new Map((await Promise.all([db, standby].map((b) => databaseBackendsCpu(b)))).flatMap((m) => [...m]));
      run.measuring();
      const { comparison } = await compareSideBySide(specs, options.kinds, asked, { options, cpu: run.cpu, running, log, databaseCpu });
      const config = loadConfig(childEnv(specs[0]!.env));
      const routing = await routingCost(db, standbyUrl, options.kinds, asked, { ...config, databaseUrl }, log);
      return {
        ...run.stamp(),
        postgresVersion,
        options: { ...comparedWith(options), kinds: options.kinds, people: options.replicaPeople },
        dataset: { people: scale.people, companies: scale.companies, credential: 'one large company', credentialCompanies: asked.credential.companies.length },
        comparison,
        routing,
      };
    } finally {
      await Promise.all([db.close(), standby.close()]);
    }
  } finally {
    await Promise.all(running.map((r) => r.stop()));
    await cluster.destroy();
  }
}

const ROUTING_READS = 4_000;
const ROUTING_BLOCKS = 4;

/** The person query's client side on the primary and through a router to the standby, in alternating blocks: this process's CPU µs per read. */
async function routingCost(
  primary: Database,
  standbyUrl: string,
  kinds: readonly PersonKind[],
  { samples, held }: AskedAs,
  config: ReturnType<typeof loadConfig>,
  log: (line: string) => void,
): Promise<NonNullable<ReplicaRunResult['routing']>> {
  const checks = { maxLagMs: config.replicaMaxLagMs, checkTimeoutMs: config.replicaCheckTimeoutMs };
  const router = await ReadRouter.open(primary, nameReplicas([standbyUrl]), config, checks);
  const figures: NonNullable<ReplicaRunResult['routing']> = [];
  try {
    for (const kind of (['getPerson', 'nameSubstring'] as const).filter((k) => kinds.includes(k))) {
      const filters = personWorkload(kind, samples, held, config).direct;
      const perRead = async (db: Queryable) => {
        const started = process.cpuUsage();
        for (let i = 0; i < ROUTING_READS; i += 10)
          await Promise.all(filters.slice(i % filters.length, (i % filters.length) + 10).map((f) => findPersons(db, f)));
        const used = process.cpuUsage(started);
        return (used.user + used.system) / ROUTING_READS;
      };
      await perRead(primary);
      await perRead(router);
      const direct: number[] = [];
      const routed: number[] = [];
      for (let block = 0; block < ROUTING_BLOCKS; block++) {
        direct.push(await perRead(primary));
        routed.push(await perRead(router));
      }
      const row = { label: personKinds[kind], reads: ROUTING_READS * ROUTING_BLOCKS, primaryUs: median(direct), routerUs: median(routed) };
      figures.push(row);
      log(`routing cost, ${row.label}: ${round(row.primaryUs)} µs per read on the primary, ${round(row.routerUs)} µs through the router`);
    }
  } finally {
    await router.close();
  }
  return figures;
}
