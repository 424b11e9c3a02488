// The full run's first steps: each engine's dataset built (or found present, outside the time
// budget); then on its data the processes to start, the scenarios with filter values drawn
// from the data, the PostgreSQL server's facts and each dataset's summary.
import { cpSync, rmSync } from 'node:fs';
import { loadConfig } from '../../server/config.js';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { type DatasetInfo, ensureDataset } from '../dataset/build.js';
import type { CredentialKey } from '../dataset/generate.js';
import { drawRows } from '../dataset/samples.js';
import type { BenchOptions } from '../options.js';
import { type Engine, type Scenario, serviceName } from '../plan.js';
import { prewarm } from '../prewarm.js';
import { childEnv, type TargetSpec } from '../processes.js';
import {
  AUDITED_KINDS,
  askAs,
  employeeKinds,
  employeeWorkload,
  helloAs,
  NARROW_CREDENTIAL_KINDS,
  type PersonKind,
  personKinds,
  personWorkload,
  worstCaseWorkload,
} from '../scenarios.js';
import { auditOffName, BARE_SEARCH, bareSearchTarget, helloReferenceTarget, serviceTarget } from '../targets.js';

export interface DatasetSummary {
  engine: Engine;
  people: number;
  companies: number;
  seed: number;
  credentials: { key: CredentialKey; name: string; companies: number; people: number }[];
}

export interface Datasets {
  infos: Partial<Record<Engine, DatasetInfo>>;
  /** PGlite's direct-SQL reference opens a copy: a PGlite directory opens in one process at a time. Removed after the measurements. */
  pgliteDirectCopy?: string;
}

export async function prepareDatasets(options: BenchOptions, log: (line: string) => void): Promise<Datasets> {
  const datasets: Datasets = { infos: {} };
  for (const dataset of [options.postgres, options.pglite]) {
    if (dataset) datasets.infos[dataset.engine] = await ensureDataset(dataset, { rebuild: options.rebuild, log });
  }
  if (options.pglite) {
    datasets.pgliteDirectCopy = `${options.pglite.dataDir}.direct`;
    rmSync(datasets.pgliteDirectCopy, { recursive: true, force: true });
    cpSync(options.pglite.dataDir, datasets.pgliteDirectCopy, { recursive: true });
  }
  return datasets;
}

export interface Plan {
  /** Every process to start, by name. */
  specs: Record<string, TargetSpec>;
  scenarios: Scenario[];
  datasets: DatasetSummary[];
  /** Each engine's direct-SQL reference (references/bareSearch.ts); PostgreSQL's is its floor in `specs`. */
  references: Partial<Record<Engine, TargetSpec>>;
  postgres: { version?: string; sharedBuffers?: string; prewarmed: boolean };
  /** The service hello is measured on (the first engine's), and the credential it asks as. */
  hello: { service: string; companyId: string; token: string };
}

type Planning = Omit<Plan, 'hello'> & { hello?: Plan['hello'] };

export async function planRun(options: BenchOptions, { infos, pgliteDirectCopy }: Datasets): Promise<Plan> {
  const plan: Planning = { specs: {}, scenarios: [], datasets: [], references: {}, postgres: { prewarmed: false } };
  for (const engine of ['postgres', 'pglite'] as const) {
    const info = infos[engine];
    if (info) await planEngine(engine, info, options, pgliteDirectCopy, plan);
  }
  if (!plan.hello) throw new Error('nothing to measure: both --no-postgres and --no-pglite');
  plan.scenarios.unshift(helloScenario(options, (infos.postgres ?? infos.pglite)!, plan.hello, plan.specs));
  return { ...plan, hello: plan.hello };
}

/** One engine's processes, facts, summary and scenarios, added to `plan`. */
async function planEngine(engine: Engine, info: DatasetInfo, options: BenchOptions, pgliteDirectCopy: string | undefined, plan: Planning): Promise<void> {
  const location = engine === 'postgres' ? { databaseUrl: options.postgres!.databaseUrl } : { pgliteDataDir: options.pglite!.dataDir };
  const ready = helloAs(info.credentials.find((c) => c.key === 'oneLarge')!);
  const service = serviceName(engine);
  plan.specs[service] = serviceTarget(service, location, ready);
  // The same service with its access audit off, for the kinds the audit's cost is measured on.
  const auditOff = engine === 'postgres' && options.auditComparison ? [auditOffName(service)] : [];
  for (const name of auditOff) plan.specs[name] = serviceTarget(name, location, ready, { AUDIT_ENABLED: 'false' });
  plan.hello ??= { service, ...ready };

  const db = await openDatabase({ ...location, poolMax: 2 });
  await emptyAccessAudit(db);
  if (engine === 'postgres') plan.postgres = await postgresFacts(db);
  plan.datasets.push(await datasetSummary(engine, info, db));
  const env = engine === 'pglite' ? { ...plan.specs[service].env, PGLITE_DATA_DIR: pgliteDirectCopy! } : plan.specs[service].env;
  plan.references[engine] = bareSearchTarget(env, info.credentials, ready);
  // The floor is measured on PostgreSQL only, where the goals read it.
  if (engine === 'postgres') plan.specs[BARE_SEARCH] = plan.references[engine];
  const http = (process: string) => ({ kind: 'http' as const, process });
  const targets: Scenario['targets'] = {
    [service]: http(service),
    ...(engine === 'postgres' && { [BARE_SEARCH]: http(BARE_SEARCH) }),
    'direct SQL': { kind: 'direct', engine },
  };
  const audited = { ...targets, ...Object.fromEntries(auditOff.map((name) => [name, http(name)])) };
  const targetsOf = (kind: PersonKind) => (AUDITED_KINDS.includes(kind) ? audited : targets);
  // The configuration the service will load from its environment: the filters are derived with it.
  const config = loadConfig(childEnv(plan.specs[service].env));
  plan.scenarios.push(...(await engineScenarios({ engine, info, db, options, config }, targets, targetsOf)));
  await db.close();
}

/** Every run starts with an empty access audit: runs measure alike, and the bench's own database does not grow. */
async function emptyAccessAudit(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT set_config('lookup.access_audit_retention', 'on', true)`);
    await tx.query('TRUNCATE access_audit');
  });
}

/** The server's version and cache, then pg_prewarm: the run measures a server that has been running, not one just restarted. */
async function postgresFacts(db: Database): Promise<Plan['postgres']> {
  const version = (await db.query<{ version: string }>('SELECT version()'))[0]?.version;
  const sharedBuffers = (await db.query<{ shared_buffers: string }>('SHOW shared_buffers'))[0]?.shared_buffers;
  return { version, sharedBuffers, prewarmed: await prewarm(db) };
}

async function datasetSummary(engine: Engine, info: DatasetInfo, db: Database): Promise<DatasetSummary> {
  const visiblePeople = async (companies: readonly string[]) => {
    const sql = 'SELECT count(DISTINCT person_id) AS n FROM employees WHERE person_id IS NOT NULL AND company_id = ANY($1::text[])';
    return Number((await db.query<{ n: string }>(sql, [companies]))[0]!.n);
  };
  return {
    engine,
    ...info.scale,
    credentials: await Promise.all(
      info.credentials.map(async (c) => ({ key: c.key, name: c.name, companies: c.companies.length, people: await visiblePeople(c.companies) })),
    ),
  };
}

type EngineAsk = { engine: Engine; info: DatasetInfo; db: Database; options: BenchOptions; config: ReturnType<typeof loadConfig> };

/** For each credential, every person and employee kind; then the worst case, as every company. */
async function engineScenarios(ask: EngineAsk, targets: Scenario['targets'], targetsOf: (kind: PersonKind) => Scenario['targets']): Promise<Scenario[]> {
  const { engine, info, db, options, config } = ask;
  const seed = info.scale.seed;
  const scenarios: Scenario[] = [];
  for (const key of options.credentials) {
    const { credential, held, samples } = await askAs(db, info, key, options.samples);
    const base = { group: engine, credential: key, token: credential.token };
    // (The credential of names and emails asks only what it is set beside the full one for.)
    const kinds = key === 'nameEmail' ? options.kinds.filter((k) => NARROW_CREDENTIAL_KINDS.includes(k)) : options.kinds;
    for (const kind of kinds) {
      const { http, direct } = personWorkload(kind, samples, held, config);
      // (The audit's cost is the full credentials' to measure.)
      const kindTargets = key === 'nameEmail' ? targets : targetsOf(kind);
      scenarios.push({ id: `${engine}:${kind}:${key}`, ...base, label: personKinds[kind], kind, http, direct, targets: kindTargets });
    }
    // Search employees, over the unlinked records the credential sees.
    const employeeAsks = key === 'nameEmail' ? [] : options.employeeKinds;
    const unlinked = employeeAsks.length ? await drawRows(db, credential.companies, false, { count: options.samples, seed }) : [];
    for (const kind of employeeAsks) {
      const workload = employeeWorkload(kind, unlinked, held, config, seed);
      scenarios.push({ id: `${engine}:${kind}:${key}`, ...base, label: employeeKinds[kind], kind, ...workload, targets });
    }
  }
  if (options.worstCase) {
    const { credential, held, samples } = await askAs(db, info, 'every', options.samples);
    const workload = worstCaseWorkload(samples, held, config);
    scenarios.push({ id: `${engine}:worstCase:every`, group: engine, kind: 'worstCase', credential: 'every', token: credential.token, ...workload, targets });
  }
  return scenarios;
}

/** Hello on the first engine's service, and on the bare node:http reference unless `--references ''`. */
function helloScenario(options: BenchOptions, info: DatasetInfo, hello: Plan['hello'], specs: Record<string, TargetSpec>): Scenario {
  const targets: Scenario['targets'] = { [hello.service]: { kind: 'http', process: hello.service } };
  if (options.bareHello) {
    const spec = helloReferenceTarget(info.credentials, hello);
    specs[spec.name] = spec;
    targets[spec.name] = { kind: 'http', process: spec.name };
  }
  const http = [{ method: 'GET' as const, path: `/v1/companies/${hello.companyId}/hello` }];
  return { id: 'hello', group: 'hello', label: 'hello', token: hello.token, http, targets };
}
