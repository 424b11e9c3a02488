// `npm run bench -- --replica`: the service reading from a hot standby beside the same
// service reading from the primary, in one alternating run on one machine, then the
// replication lag and the read p99 while a change file is applied to the primary. The
// bench makes its own primary and standby (support/replicatedCluster.ts: initdb,
// pg_basebackup -R, pg_ctl), with durability on as in production, and its own dataset
// there; it never touches the machine's own clusters.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type Config, loadConfig } from '../../server/config.js';
import type { Database, Queryable } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { findPersons } from '../../server/db/persons/persons.js';
import { nameReplicas, ReadRouter } from '../../server/db/replicas/readRouting.js';
import { type ReplicatedCluster, startReplicatedCluster } from '../../support/replicatedCluster.js';
import { databaseBackendsCpu } from '../cpu.js';
import { ensureDataset } from '../dataset/build.js';
import { scaleFor } from '../dataset/generate.js';
import { peopleChange, writeNdjson } from '../imports/files.js';
import { runImportCli } from '../imports/importCli.js';
import { beginRun } from '../machine.js';
import type { BenchOptions } from '../options.js';
import { prewarm } from '../prewarm.js';
import { childEnv, type Running } from '../processes.js';
import { type AskedAs, askAs, type HttpRequestSpec, helloAs, type PersonKind, personKinds, personWorkload } from '../scenarios.js';
import { searchesAround } from '../searchesAround.js';
import { comparedWith, compareSideBySide } from '../sideBySide.js';
import { median, percentile, round } from '../stats.js';
import { serviceTarget } from '../targets.js';
import { type ChangeUnderLoad, FROM_PRIMARY, FROM_REPLICA, type ReplicaRunResult } from './results.js';

/** Durability as in production (the tests' clusters turn it off), and room for the dataset. */
const BENCH_SETTINGS = `
fsync = on
full_page_writes = on
shared_buffers = '256MB'
max_wal_size = '4GB'
max_connections = 100
`;

const LAG_SAMPLE_MS = 100;
const IDLE_SECONDS = 10;

export async function runReplicaBench(options: BenchOptions, log: (line: string) => void): Promise<ReplicaRunResult> {
  const run = beginRun();
  log('replicas: starting a primary and a hot standby of its own');
  const cluster = await startReplicatedCluster(BENCH_SETTINGS);
  const running: Running[] = [];
  try {
    const databaseUrl = cluster.primary.url.replace(/\/postgres$/, '/lookup_bench');
    const standbyUrl = cluster.standby.url.replace(/\/postgres$/, '/lookup_bench');
    const scale = scaleFor(options.replicaPeople, { seed: options.postgres?.seed });
    const info = await ensureDataset({ engine: 'postgres', databaseUrl }, { scale, rebuild: false, log });
    const db = await openDatabase({ databaseUrl, poolMax: 2 });
    const standby = await openDatabase({ databaseUrl: standbyUrl, poolMax: 1 });
    try {
      const postgresVersion = (await db.query<{ version: string }>('SELECT version()'))[0]?.version;
      // Both servers' caches hold what fits of the data, as on servers that have been running
      // (the standby has pg_prewarm once it has replayed the primary's CREATE EXTENSION).
      const primaryWarm = await prewarm(db);
      await cluster.caughtUp(600_000);
      if (!primaryWarm || !(await prewarm(standby, { createExtension: false }))) throw new Error('pg_prewarm failed on the primary or the standby');

      const asked = await askAs(db, info, 'oneLarge', options.samples);
      const ready = helloAs(asked.credential);
      const specs = [
        serviceTarget(FROM_REPLICA, { databaseUrl }, ready, { DATABASE_REPLICA_URLS: standbyUrl }),
        serviceTarget(FROM_PRIMARY, { databaseUrl }, ready),
      ];
      const config = loadConfig(childEnv(specs[0]!.env));
      // The CPU of both servers' backends per request, beside the service's own: steadier than
      // req/s on a shared host, and where the routing's cost would show.
      const databaseCpu = async () => new Map((await Promise.all([db, standby].map((b) => databaseBackendsCpu(b)))).flatMap((m) => [...m]));
      run.measuring();
      const sideBySide = { options, cpu: run.cpu, running, log, databaseCpu };
      const { services, scenarios, comparison } = await compareSideBySide(specs, options.kinds, { ...asked, config }, sideBySide);
      const routing = await routingCost(db, { databaseUrl, standbyUrl }, options.kinds, { ...asked, config }, log);

      // A change file on the primary while the replica-reading service answers searches.
      const searches = scenarios.filter((s) => s.kind && s.kind !== 'getPerson').flatMap((s) => s.http.slice(0, 200));
      const service = services[FROM_REPLICA]!;
      const change = await changeUnderLoad({ cluster, databaseUrl, standbyUrl, db, service, token: ready.token, searches, options, log });
      return {
        ...run.stamp(),
        postgresVersion,
        options: { ...comparedWith(options), kinds: options.kinds, people: options.replicaPeople, replicaMaxLagMs: loadConfig({}).replicaMaxLagMs },
        dataset: { people: scale.people, companies: scale.companies, credential: 'one large company', credentialCompanies: asked.credential.companies.length },
        comparison,
        change,
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

interface ChangeContext {
  cluster: ReplicatedCluster;
  databaseUrl: string;
  standbyUrl: string;
  db: Awaited<ReturnType<typeof openDatabase>>;
  service: Running;
  token: string;
  searches: HttpRequestSpec[];
  options: BenchOptions;
  log: (line: string) => void;
}

/** 1% of the people changed on the primary while searches read from the replica: their p99 beside idle, and the lag. */
async function changeUnderLoad(ctx: ChangeContext): Promise<ChangeUnderLoad> {
  const { cluster, db, service, log } = ctx;
  const workDir = join(ctx.options.workDir, 'replicas');
  mkdirSync(workDir, { recursive: true });
  log('replicas: writing a change file touching 1% of the people');
  const files = await peopleChange(db, 0.01);
  const changeFile = join(workDir, 'change.ndjson');
  const inverseFile = join(workDir, 'change-inverse.ndjson');
  await writeNdjson(changeFile, files.change);
  await writeNdjson(inverseFile, files.inverse);
  try {
    const load = { service, token: ctx.token, requests: ctx.searches, connections: ctx.options.connections };
    let readsBefore: Record<string, number> = {};
    let sampler: Awaited<ReturnType<typeof lagSampler>> | undefined;
    const {
      idle,
      during,
      applied: run,
    } = await searchesAround(load, IDLE_SECONDS, async () => {
      readsBefore = await readsBy(service.url);
      sampler = await lagSampler(ctx.standbyUrl);
      return runImportCli(ctx.databaseUrl, changeFile, 'change file (replicas)', files.change.length);
    });
    // Until the standby has replayed the file: the lag's tail belongs to it.
    await cluster.caughtUp(600_000);
    const lag = await sampler!.stop();
    const readsAfter = await readsBy(service.url);
    log(
      `replicas: change applied in ${run.seconds} s; lag p99 ${round(lag.p99Ms)} ms, max ${round(lag.maxMs)} ms; search p99 ${round(during.p99, 2)} ms (idle ${round(idle.p99, 2)} ms)`,
    );
    await runImportCli(ctx.databaseUrl, inverseFile, 'change inverse (replicas)', files.inverse.length);
    return {
      description: files.description,
      records: files.change.length,
      importSeconds: run.seconds,
      idle,
      during,
      lag,
      reads: Object.fromEntries(Object.entries(readsAfter).map(([name, n]) => [name, n - (readsBefore[name] ?? 0)])),
    };
  } finally {
    rmSync(changeFile, { force: true });
    rmSync(inverseFile, { force: true });
  }
}

const ROUTING_READS = 4_000;
const ROUTING_BLOCKS = 4;

/**
 * The person query's client side, on the primary directly and through a router to the
 * standby (as the service opens them), in alternating blocks of reads, ten at a time:
 * CPU µs of this process per read.
 */
async function routingCost(
  primary: Database,
  { databaseUrl, standbyUrl }: { databaseUrl: string; standbyUrl: string },
  kinds: readonly PersonKind[],
  { samples, held, config }: AskedAs & { config: Config },
  log: (line: string) => void,
): Promise<NonNullable<ReplicaRunResult['routing']>> {
  const router = await ReadRouter.open(
    primary,
    nameReplicas([standbyUrl]),
    { ...config, databaseUrl },
    { maxLagMs: config.replicaMaxLagMs, checkTimeoutMs: config.replicaCheckTimeoutMs },
  );
  const figures: NonNullable<ReplicaRunResult['routing']> = [];
  try {
    for (const kind of ['getPerson', 'nameSubstring'] as const) {
      if (!kinds.includes(kind)) continue;
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Samples the standby's heartbeat age (the service's own measure of its lag) until stopped. */
async function lagSampler(standbyUrl: string) {
  const standby = new pg.Client({ connectionString: standbyUrl });
  await standby.connect();
  const ages: number[] = [];
  let running = true;
  const sampling = (async () => {
    while (running) {
      const sql = 'SELECT (extract(epoch FROM clock_timestamp() - at) * 1000)::float8 AS age_ms FROM replica_heartbeat';
      ages.push((await standby.query<{ age_ms: number }>(sql)).rows[0]!.age_ms);
      await sleep(LAG_SAMPLE_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await sampling;
      await standby.end();
      const bound = loadConfig({}).replicaMaxLagMs;
      const [p50Ms, p99Ms] = [percentile(ages, 0.5), percentile(ages, 0.99)];
      return { samples: ages.length, p50Ms, p99Ms, maxMs: Math.max(...ages), overBoundMs: ages.filter((a) => a > bound).length * LAG_SAMPLE_MS };
    },
  };
}

/** The reads each database answered so far, from the service's /metrics. */
async function readsBy(url: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const reads: Record<string, number> = {};
  for (const [, labels, value] of text.matchAll(/^db_reads_total\{([^}]*)\} (\d+)/gm)) reads[/role="([^"]+)"/.exec(labels!)![1]!] = Number(value);
  return reads;
}
