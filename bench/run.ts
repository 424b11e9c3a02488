// One bench run: datasets ready, filter values drawn, every process started (cold starts
// timed), a warm-up, then the alternating rounds of measurements inside the time budget,
// then EXPLAIN of the slow filter kinds. Returns raw results; report.ts summarizes them.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import os from 'node:os';
import { relative } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../server/config.js';
import { planEmployeeSearch } from '../server/db/employees/plan.js';
import { renderEmployeeSearch } from '../server/db/employees/render.js';
import { openDatabase } from '../server/db/engines/openDatabase.js';
import { findPersons } from '../server/db/persons/persons.js';
import { findActiveCredential } from '../server/db/stores/credentials.js';
import type { PersonFilter } from '../server/domain/persons.js';
import { hashToken } from '../server/domain/tokens.js';
import { type AuditIndexMerge, auditIndexUpkeep, emptyAuditIndexPendingList } from './auditIndex.js';
import { type ChangeResults, changePhase, churnAfter, churnBefore, importPhase, type PhaseContext, recoverInterruptedRun } from './changes/phases.js';
import { databaseBackendsCpu } from './cpu.js';
import { type DatasetInfo, ensureDataset } from './dataset/build.js';
import { type BenchCredential, type CredentialKey, createDataset, scaleFor } from './dataset/generate.js';
import { drawSamples } from './dataset/samples.js';
import { type DirectRunner, startDirectRunner } from './directClient.js';
import { drawEmployeeSamples, type EmployeeAsk, employeeKinds, employeeWorkload, isEmployeeKind } from './employeeScenarios.js';
import { callgrindAvailable, countInstructions, type InstructionCount } from './instructions.js';
import { type Measured, measureHttp } from './loadHttp.js';
import { describeMachine, type Machine, pinSelf } from './machine.js';
import type { BenchOptions } from './options.js';
import { alternatingSteps, type Engine, type Scenario, type Step } from './plan.js';
import { prewarm } from './prewarm.js';
import { childEnv, type Running, startTarget, type TargetSpec } from './processes.js';
import { AUDITED_KINDS, type PersonKind, personKinds, personWorkload, worstCaseWorkload } from './scenarios.js';
import { round } from './stats.js';
import { auditOffName, BARE_HELLO, BARE_SEARCH, bareSearchTarget, helloReferenceTarget, serviceTarget } from './targets.js';

export interface DatasetSummary {
  engine: Engine;
  location: string;
  people: number;
  companies: number;
  seed: number;
  builtAt: string;
  builtNow: boolean;
  load: DatasetInfo['marker']['load'];
  credentials: { key: CredentialKey; name: string; companies: number; people: number }[];
}

export interface RunResult {
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  postgresVersion?: string;
  /** The server's shared_buffers: how much of the data its own cache can hold. */
  postgresSharedBuffers?: string;
  /** Whether pg_prewarm loaded the tables and indexes before measuring. */
  postgresPrewarmed?: boolean;
  options: Omit<BenchOptions, 'outDir'>;
  datasets: DatasetSummary[];
  scenarios: (Omit<Scenario, 'http' | 'direct' | 'token' | 'targets'> & { targets: string[]; requestPool: number; sampleRequest?: string })[];
  coldStarts: Record<string, number[]>;
  measurements: { scenario: string; target: string; round: number; measured: Measured & { firstError?: string } }[];
  skipped: { scenario: string; target: string; round: number }[];
  /** Processes under test that ended during the run, with what they last wrote to stderr. */
  crashes: { target: string; during: string; round: number; exit: string; stderr: string }[];
  explains: { scenario: string; label: string; credential?: string; filter: Record<string, unknown>; plan: string }[];
  budget: { seconds: number; used: number; exhausted: boolean };
  /** Hello's instructions per request under callgrind, by target (the service and the bare reference), when counted. */
  helloInstructions?: Record<string, InstructionCount>;
  /** 1-minute load average when measuring started and when it ended: how busy the (shared) machine was. */
  loadAverage: { start: number; end: number };
  /** The commit measured, and the server files that differed from it (uncommitted work). */
  revision: { commit: string; uncommittedServerFiles: string[] };
  /** The deferred merge of the access audit's person index after the measurements (bench/auditIndex.ts). */
  auditIndexMerge?: AuditIndexMerge;
  /** The change phases (import, change, churn), where run. */
  changes?: ChangeResults & { phases: string[]; loadAverage: number[] };
}

const engineName: Record<Engine, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const measuredRevision = revision();
  const machine = describeMachine();
  if (machine.pinning) pinSelf(machine.pinning.loadCpu);
  const cpu = machine.pinning?.targetCpu;
  log(machine.pinning ? `load generator on CPU ${machine.pinning.loadCpu}, processes under test on CPU ${cpu}` : 'no CPU pinning (needs taskset and 2+ cores)');

  // Datasets come first and outside the budget: a build is bounded by its size and skipped when present.
  const infos: Partial<Record<Engine, DatasetInfo>> = {};
  let pgliteDirectCopy: string | undefined;
  if (options.postgres) {
    const { databaseUrl, people, companies, seed } = options.postgres;
    infos.postgres = await ensureDataset({ engine: 'postgres', databaseUrl }, { scale: scaleFor(people, { companies, seed }), rebuild: options.rebuild, log });
  }
  if (options.pglite) {
    const { dataDir, people, companies, seed } = options.pglite;
    infos.pglite = await ensureDataset({ engine: 'pglite', dataDir }, { scale: scaleFor(people, { companies, seed }), rebuild: options.rebuild, log });
    // PGlite is single-process: the direct-SQL reference gets its own copy of the data directory.
    pgliteDirectCopy = `${dataDir}.direct`;
    rmSync(pgliteDirectCopy, { recursive: true, force: true });
    cpSync(dataDir, pgliteDirectCopy, { recursive: true });
  }

  // Change phases that come before the read measurements (outside the budget, like the
  // dataset builds): the whole-file import into a database of its own, and the churn
  // the read measurements are then taken after.
  const changes: RunResult['changes'] =
    options.phases.length && infos.postgres ? { imports: [], notes: [], phases: options.phases, loadAverage: [] } : undefined;
  let phaseContext: PhaseContext | undefined;
  if (changes && infos.postgres) {
    const { databaseUrl, people, companies, seed } = options.postgres!;
    phaseContext = { databaseUrl, dataset: createDataset(scaleFor(people, { companies, seed })), workDir: options.workDir, searchFilters: [], log };
    changes.loadAverage.push(round(os.loadavg()[0]!, 2));
    await recoverInterruptedRun(phaseContext, changes);
    if (options.phases.includes('import')) await importPhase(phaseContext, changes);
    if (options.phases.includes('churn')) await churnBefore(phaseContext, changes);
  }

  const budgetStart = performance.now();
  const loadAtStart = os.loadavg()[0]!;
  const elapsed = () => (performance.now() - budgetStart) / 1000;
  const withinBudget = (seconds: number) => elapsed() + seconds <= options.budgetS;

  // Scenarios, with filter values drawn from each engine's data.
  const specs: Record<string, TargetSpec> = {};
  const scenarios: Scenario[] = [];
  const datasets: DatasetSummary[] = [];
  let postgresVersion: string | undefined;
  let postgresSharedBuffers: string | undefined;
  let postgresPrewarmed = false;
  let helloService: { name: string; credential: BenchCredential } | undefined;
  const directEnv: Partial<Record<Engine, Record<string, string>>> = {};
  for (const engine of ['postgres', 'pglite'] as const) {
    const info = infos[engine];
    if (!info) continue;
    const location = engine === 'postgres' ? { databaseUrl: options.postgres!.databaseUrl } : { pgliteDataDir: options.pglite!.dataDir };
    const credential = (key: CredentialKey) => info.credentials.find((c) => c.key === key)!;
    const service = `service (${engineName[engine]})`;
    const oneLarge = credential('oneLarge');
    specs[service] = serviceTarget(service, location, { companyId: oneLarge.companies[0]!, token: oneLarge.token });
    // The same service with its access audit off, for the kinds the audit's cost is measured on.
    const auditVariants: Record<string, Record<string, string>> = engine === 'postgres' && options.auditComparison
      ? { [auditOffName(service)]: { AUDIT_ENABLED: 'false' } }
      : {};
    for (const [name, env] of Object.entries(auditVariants))
      specs[name] = serviceTarget(name, location, { companyId: oneLarge.companies[0]!, token: oneLarge.token }, env);
    // The configuration the service will load from that environment: the direct-SQL
    // reference opens its database with it, and the filters are derived with it.
    const serviceConfig = loadConfig(childEnv(specs[service].env));
    directEnv[engine] = engine === 'pglite' ? { ...specs[service].env, PGLITE_DATA_DIR: pgliteDirectCopy! } : specs[service].env;
    helloService ??= { name: service, credential: oneLarge };

    const db = await openDatabase({ ...location, poolMax: 2 });
    // Each run starts with an empty access audit, so that runs measure alike and the bench
    // database does not grow by every run's entries (the bench's own: its database only).
    await db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('lookup.access_audit_retention', 'on', true)`);
      await tx.query('TRUNCATE access_audit');
    });
    if (engine === 'postgres') {
      postgresVersion = (await db.query<{ version: string }>('SELECT version()'))[0]?.version;
      postgresSharedBuffers = (await db.query<{ shared_buffers: string }>('SHOW shared_buffers'))[0]?.shared_buffers;
      // Measure a server that has been running, whose cache holds what fits of the data,
      // not one just restarted: load every table and index into shared buffers (as much
      // as they hold) with PostgreSQL's own pg_prewarm.
      // Where the extension is not installed, the report says so.
      postgresPrewarmed = await prewarm(db);
    }
    const visiblePeople = async (companies: readonly string[]) =>
      Number(
        (
          await db.query<{ n: string }>('SELECT count(DISTINCT person_id) AS n FROM employees WHERE person_id IS NOT NULL AND company_id = ANY($1::text[])', [
            companies,
          ])
        )[0]!.n,
      );
    datasets.push({
      engine,
      location: engine === 'postgres' ? new URL(options.postgres!.databaseUrl).pathname.slice(1) : relative(process.cwd(), options.pglite!.dataDir) || '.',
      ...info.scale,
      builtAt: info.marker.builtAt,
      builtNow: info.built,
      load: info.marker.load,
      credentials: await Promise.all(
        info.credentials.map(async (c) => ({ key: c.key, name: c.name, companies: c.companies.length, people: await visiblePeople(c.companies) })),
      ),
    });
    // On PostgreSQL, the floor of an HTTP service in front of the same query (a PGlite
    // directory opens in one process at a time).
    if (engine === 'postgres')
      specs[BARE_SEARCH] = bareSearchTarget(specs[service].env, info.credentials, { companyId: oneLarge.companies[0]!, token: oneLarge.token });
    const targets: Scenario['targets'] = {
      [service]: { kind: 'http' as const, process: service },
      ...(engine === 'postgres' ? { [BARE_SEARCH]: { kind: 'http' as const, process: BARE_SEARCH } } : {}),
      'direct SQL': { kind: 'direct' as const, engine },
    };
    const targetsOf = (kind: PersonKind) =>
      AUDITED_KINDS.includes(kind)
        ? { ...targets, ...Object.fromEntries(Object.keys(auditVariants).map((name) => [name, { kind: 'http' as const, process: name }])) }
        : targets;
    // The credential as the service holds it, so that direct SQL gets the service's exact filters.
    const stored = async (c: BenchCredential) => {
      const found = await findActiveCredential(db, hashToken(c.token));
      if (!found) throw new Error(`credential "${c.name}" is not in the ${engineName[engine]} dataset`);
      return found;
    };
    for (const key of options.credentials) {
      const c = credential(key);
      const held = await stored(c);
      const samples = await drawSamples(db, c.companies, { count: options.samples, seed: info.scale.seed });
      for (const kind of options.kinds) {
        const workload = personWorkload(kind, samples, held, serviceConfig);
        scenarios.push({
          id: `${engine}:${kind}:${key}`,
          group: engine,
          label: personKinds[kind],
          kind,
          credential: key,
          token: c.token,
          http: workload.http,
          direct: workload.direct,
          targets: targetsOf(kind),
        });
      }
      // Search employees, over the unlinked records the credential sees.
      const unlinked = options.employeeKinds.length ? await drawEmployeeSamples(db, c.companies, options.samples, info.scale.seed) : undefined;
      for (const kind of options.employeeKinds) {
        const workload = employeeWorkload(kind, unlinked!, held, serviceConfig, info.scale.seed);
        scenarios.push({
          id: `${engine}:${kind}:${key}`,
          group: engine,
          label: employeeKinds[kind],
          kind,
          credential: key,
          token: c.token,
          ...workload,
          targets,
        });
      }
    }
    if (options.worstCase) {
      const every = credential('every');
      const workload = worstCaseWorkload(
        await drawSamples(db, every.companies, { count: options.samples, seed: info.scale.seed }),
        await stored(every),
        serviceConfig,
      );
      scenarios.push({
        id: `${engine}:worstCase:every`,
        group: engine,
        label: `worst case: last name contains "${workload.substring}"`,
        note: `the most common 3-letter fragment, in ${Math.round(workload.share * 100)}% of sampled last names`,
        kind: 'worstCase',
        credential: 'every',
        token: every.token,
        http: workload.http,
        direct: workload.direct,
        targets,
      });
    }
    await db.close();
  }
  if (!helloService) throw new Error('nothing to measure: both --no-postgres and --no-pglite');

  const { credential: helloCredential } = helloService;
  const companyId = helloCredential.companies[0]!;
  const helloTargets: Scenario['targets'] = { [helloService.name]: { kind: 'http', process: helloService.name } };
  const referenceCredentials = (infos.postgres ?? infos.pglite)!.credentials.map(({ token, companies }) => ({ token, companies }));
  if (options.references.includes('bare')) {
    const spec = helloReferenceTarget(referenceCredentials, { companyId, token: helloCredential.token });
    specs[spec.name] = spec;
    helloTargets[spec.name] = { kind: 'http', process: spec.name };
  }
  scenarios.unshift({
    id: 'hello',
    group: 'hello',
    label: 'hello',
    token: helloCredential.token,
    http: [{ method: 'GET', path: `/v1/companies/${companyId}/hello` }],
    targets: helloTargets,
  });

  // The change file while searches run: searches of the PostgreSQL scenarios' filters (one large company).
  if (changes && phaseContext && options.phases.includes('change')) {
    phaseContext.searchFilters = scenarios
      .filter((s) => s.group === 'postgres' && s.credential === 'oneLarge' && s.direct && !isEmployeeKind(s.kind))
      .flatMap((s) => (s.direct as PersonFilter[]).slice(0, 100));
    if (phaseContext.searchFilters.length) await changePhase(phaseContext, changes);
  }

  const coldStarts: Record<string, number[]> = Object.fromEntries(Object.keys(specs).map((name) => [name, []]));
  const measurements: RunResult['measurements'] = [];
  const skipped: RunResult['skipped'] = [];
  const crashes: RunResult['crashes'] = [];
  const running: Record<string, Running> = {};
  const direct: Partial<Record<Engine, DirectRunner>> = {};
  // Reads the CPU time of the bench database's backends around each PostgreSQL person
  // measurement, so every target's cost is also given as CPU per request, the database's
  // included (steadier than req/s on a shared host; and the audit's cost).
  const backends = options.postgres ? await openDatabase({ databaseUrl: options.postgres.databaseUrl, poolMax: 1 }) : undefined;
  let auditIndexSince: Date | undefined;
  try {
    // Cold starts: spawn → first successful hello, alternating over the targets.
    for (let i = 1; i < options.coldStarts && withinBudget(60); i++) {
      for (const [name, spec] of Object.entries(specs)) {
        const started = await startTarget(spec, cpu);
        coldStarts[name]!.push(started.coldStartMs);
        await started.stop();
      }
    }
    for (const [name, spec] of Object.entries(specs)) {
      running[name] = await startTarget(spec, cpu);
      coldStarts[name]!.push(running[name].coldStartMs);
      log(`${name}: up, cold start ${Math.round(running[name].coldStartMs)} ms`);
    }
    for (const engine of ['postgres', 'pglite'] as const) if (directEnv[engine]) direct[engine] = await startDirectRunner(directEnv[engine], cpu);

    const noteCrash = (step: Step) => {
      const ref = step.scenario.targets[step.target]!;
      const underTest = ref.kind === 'http' ? running[ref.process] : undefined;
      const exit = underTest?.exited();
      if (!underTest || !exit || crashes.some((c) => c.target === underTest.name)) return;
      crashes.push({ target: underTest.name, during: step.scenario.id, round: step.round, exit, stderr: underTest.stderr() });
      log(`${underTest.name} ${exit} during ${step.round ? `round ${step.round} of` : 'the warm-up on'} ${step.scenario.id}: ${underTest.stderr()}`);
    };

    const measure = async (step: Step, durationS: number) => {
      const ref = step.scenario.targets[step.target]!;
      const databaseCpu = backends && step.scenario.group === 'postgres' ? () => databaseBackendsCpu(backends) : undefined;
      if (ref.kind === 'direct') {
        return direct[ref.engine]!.measure(step.scenario.direct!, options.connections, durationS, databaseCpu);
      }
      const target = running[ref.process]!;
      return measureHttp({
        url: target.url,
        token: step.scenario.token,
        requests: step.scenario.http,
        connections: options.connections,
        durationS,
        pid: target.pid,
        databaseCpu,
      });
    };

    // Warm-up: JIT, connection pools and caches, on every scenario and target, so that no
    // target's first rounds of a scenario measure its compilation; not recorded.
    if (options.warmupS > 0) {
      for (const scenario of scenarios) {
        for (const target of Object.keys(scenario.targets)) {
          if (!withinBudget(options.warmupS)) continue;
          await measure({ round: 0, scenario, target }, options.warmupS);
          noteCrash({ round: 0, scenario, target });
        }
      }
    }

    auditIndexSince = backends && options.auditComparison ? await emptyAuditIndexPendingList(options.postgres!.databaseUrl) : undefined;
    for (const step of alternatingSteps(scenarios, options.rounds)) {
      if (!withinBudget(options.durationS + 2)) {
        skipped.push({ scenario: step.scenario.id, target: step.target, round: step.round });
        continue;
      }
      const ref = step.scenario.targets[step.target]!;
      const underTest = ref.kind === 'http' ? running[ref.process] : undefined;
      if (underTest?.exited()) {
        skipped.push({ scenario: step.scenario.id, target: step.target, round: step.round });
        continue;
      }
      const measured = await measure(step, options.durationS);
      measurements.push({ scenario: step.scenario.id, target: step.target, round: step.round, measured });
      noteCrash(step);
      const problems =
        measured.non2xx || measured.errors
          ? ` — ${measured.non2xx} non-2xx, ${measured.errors} errors${measured.firstError ? ` (${measured.firstError})` : ''}`
          : '';
      log(
        `[${Math.round(elapsed())} s] round ${step.round} ${step.scenario.group} ${step.scenario.label}${step.scenario.credential ? ` (${step.scenario.credential})` : ''} · ${step.target}: ` +
          `${Math.round(measured.rps)} req/s, p50 ${round(measured.p50, 2)} ms, p99 ${round(measured.p99, 2)} ms${problems}`,
      );
    }
  } finally {
    await Promise.all([...Object.values(running).map((r) => r.stop()), ...Object.values(direct).map((d) => d.stop()), backends?.close()]);
    if (pgliteDirectCopy) rmSync(pgliteDirectCopy, { recursive: true, force: true });
  }
  // Every service has stopped, so every entry is shipped: the audit's deferred index upkeep can be measured.
  let auditIndexMerge: AuditIndexMerge | undefined;
  if (auditIndexSince && options.postgres) {
    const audited = measurements.filter((m) => {
      const scenario = scenarios.find((s) => s.id === m.scenario);
      return (
        scenario?.group === 'postgres' &&
        AUDITED_KINDS.includes(scenario.kind as PersonKind) &&
        m.target === `service (${engineName.postgres})` &&
        m.measured.window
      );
    });
    const upkeep = await auditIndexUpkeep(
      options.postgres.databaseUrl,
      auditIndexSince,
      audited.map((m) => m.measured.window!),
    );
    audited.forEach((m, i) => {
      m.measured.auditIdsPerResponse = upkeep.idsPerResponse[i];
    });
    auditIndexMerge = upkeep.merge;
    log(
      `access audit's person index: ${upkeep.merge.ids.toLocaleString('en-US')} ids merged after the measurements in ${Math.round(upkeep.merge.cpuMs)} ms of CPU`,
    );
  }
  // After every measurement, on an idle host: a target under callgrind takes a core for minutes.
  let helloInstructions: RunResult['helloInstructions'];
  const counted = [helloService.name, BARE_HELLO].filter((name) => specs[name]);
  if (options.instructions && counted.length === 2 && callgrindAvailable()) {
    helloInstructions = {};
    for (const name of counted) {
      helloInstructions[name] = await countInstructions(
        specs[name]!,
        { path: `/v1/companies/${companyId}/hello`, token: helloCredential.token },
        options.connections,
      );
      log(`${name}: ${helloInstructions[name].perRequest.map((n) => Math.round(n)).join(', ')} instructions per hello (callgrind)`);
    }
  }
  if (changes && phaseContext && options.phases.includes('churn')) await churnAfter(phaseContext, changes);
  if (changes) changes.loadAverage.push(round(os.loadavg()[0]!, 2));
  const loadAtEnd = os.loadavg()[0]!;
  if (skipped.length) log(`${skipped.length} measurements skipped (time budget of ${options.budgetS} s reached, or the target crashed)`);

  const explains = options.explain && options.postgres ? await explainSlow(options.postgres.databaseUrl, scenarios, measurements) : [];
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine,
    postgresVersion,
    postgresSharedBuffers,
    postgresPrewarmed,
    options: { ...options, outDir: undefined } as Omit<BenchOptions, 'outDir'>,
    datasets,
    scenarios: scenarios.map(({ http, direct: _, token: __, targets, ...rest }) => ({
      ...rest,
      targets: Object.keys(targets),
      requestPool: http.length,
      sampleRequest: http[0] && `${http[0].method} ${http[0].path}${http[0].body ? ` ${http[0].body}` : ''}`,
    })),
    coldStarts,
    measurements,
    skipped,
    crashes,
    explains,
    budget: { seconds: options.budgetS, used: Math.round(elapsed()), exhausted: skipped.length > 0 },
    helloInstructions,
    loadAverage: { start: round(loadAtStart, 2), end: round(loadAtEnd, 2) },
    revision: measuredRevision,
    auditIndexMerge,
    changes,
  };
}

function revision(): RunResult['revision'] {
  const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' }).stdout?.trim() ?? '';
  return {
    commit: git('rev-parse', '--short', 'HEAD') || 'unknown',
    uncommittedServerFiles: git('status', '--porcelain', '--', 'server')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3)),
  };
}

/** p99 targets: Get person under 10 ms, every other person operation under 50 ms. */
export const p99TargetMs = (kind: Scenario['kind']) => (kind === 'getPerson' ? 10 : 50);

/** EXPLAIN (ANALYZE, BUFFERS) of the first filter of every PostgreSQL scenario whose service p99 missed its target, and of the worst case. */
async function explainSlow(databaseUrl: string, scenarios: Scenario[], measurements: RunResult['measurements']): Promise<RunResult['explains']> {
  const slow = scenarios.filter((s) => {
    if (s.group !== 'postgres' || !s.direct) return false;
    const p99s = measurements.filter((m) => m.scenario === s.id && m.target !== 'direct SQL').map((m) => m.measured.p99);
    return s.kind === 'worstCase' || p99s.some((p) => !(p < p99TargetMs(s.kind)));
  });
  if (!slow.length) return [];
  const client = new pg.Client({ connectionString: databaseUrl, statement_timeout: 120_000 });
  await client.connect();
  const explains: RunResult['explains'] = [];
  try {
    for (const s of slow) {
      const filter = s.direct![0]!;
      // findPersons builds the statement; capture it instead of running it, then EXPLAIN it.
      let statement: { sql: string; params: unknown[] } | undefined;
      if ('employees' in filter) {
        const { text, params } = renderEmployeeSearch(planEmployeeSearch(filter));
        statement = { sql: text, params };
      } else await findPersons({ query: async (sql, params) => ((statement = { sql, params: params ?? [] }), []) }, filter);
      // Twice, keeping the second: the first pays this fresh connection's catalog cache
      // misses in planning, which the service's long-lived pooled connections do not.
      await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement!.sql}`, statement!.params);
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement!.sql}`, statement!.params);
      explains.push({ scenario: s.id, label: s.label, credential: s.credential, filter: shortened(filter), plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
    }
  } finally {
    await client.end();
  }
  return explains;
}

/** The filter for the report, with long arrays (a credential's 2,000 companies) cut short. */
function shortened(filter: PersonFilter | EmployeeAsk): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) && v.length > 5 ? [...v.slice(0, 3), `… ${v.length} in all`] : v]),
  );
}
