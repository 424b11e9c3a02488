// The full run's measurements, inside the time budget: cold starts (spawn → first successful
// hello, alternating over the targets), every process started, a warm-up of every scenario on
// every target, then the alternating rounds. Processes under test that end are noted, and
// their later measurements skipped.
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { cpuMeter, databaseBackendsCpu, sampleRss } from '../cpu.js';
import { type Measured, measureHttp } from '../loadHttp.js';
import type { BenchOptions } from '../options.js';
import { alternatingSteps, type Engine, type Step } from '../plan.js';
import { type Running, startTarget } from '../processes.js';
import type { DirectResult, DirectRun } from '../references/bareSearch.js';
import { round } from '../stats.js';
import type { Plan } from './plan.js';

/** Seconds since the budget started, and whether `more` seconds still fit in it. */
export function startBudget(seconds: number) {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  return { elapsed, fits: (more: number) => elapsed() + more <= seconds };
}
type Budget = ReturnType<typeof startBudget>;

export interface Measurements {
  coldStarts: Record<string, number[]>;
  measurements: { scenario: string; target: string; round: number; measured: Measured }[];
  skipped: { scenario: string; target: string; round: number }[];
  /** Processes under test that ended during the run, with what they last wrote to stderr. */
  crashes: { target: string; during: string; round: number; exit: string; stderr: string }[];
}

/** What is running during the measurements. */
interface Session {
  options: BenchOptions;
  plan: Plan;
  running: Record<string, Running>;
  /** Each engine's direct-SQL reference: PostgreSQL's is its floor, in `running` too. */
  direct: Partial<Record<Engine, Running>>;
  /** Reads the CPU time of the bench database's backends around each PostgreSQL measurement. */
  backends?: Database;
  results: Measurements;
  log: (line: string) => void;
}

export async function measureAll(
  options: BenchOptions,
  plan: Plan,
  budget: Budget,
  cpu: number | undefined,
  log: (line: string) => void,
): Promise<Measurements> {
  const results: Measurements = {
    coldStarts: Object.fromEntries(Object.keys(plan.specs).map((name) => [name, []])),
    measurements: [],
    skipped: [],
    crashes: [],
  };
  // CPU per request of every target, the database's included (steadier than req/s on a shared host; and the audit's cost).
  const backends = options.postgres ? await openDatabase({ databaseUrl: options.postgres.databaseUrl, poolMax: 1 }) : undefined;
  const session: Session = { options, plan, running: {}, direct: {}, backends, results, log };
  try {
    await startEverything(session, budget, cpu);
    await warmUp(session, budget);
    await rounds(session, budget);
  } finally {
    const processes = new Set([...Object.values(session.running), ...Object.values(session.direct)]);
    await Promise.all([...[...processes].map((p) => p.stop()), backends?.close()]);
  }
  return results;
}

/** Cold-start samples (all but the last), then every process started for good, its start the last sample. */
async function startEverything(session: Session, budget: Budget, cpu: number | undefined): Promise<void> {
  const { options, plan, running, results } = session;
  for (let i = 1; i < options.coldStarts && budget.fits(60); i++) {
    for (const [name, spec] of Object.entries(plan.specs)) {
      const started = await startTarget(spec, cpu);
      results.coldStarts[name]!.push(started.coldStartMs);
      await started.stop();
    }
  }
  for (const [name, spec] of Object.entries(plan.specs)) {
    running[name] = await startTarget(spec, cpu);
    results.coldStarts[name]!.push(running[name].coldStartMs);
    session.log(`${name}: up, cold start ${Math.round(running[name].coldStartMs)} ms`);
  }
  for (const engine of ['postgres', 'pglite'] as const) {
    const spec = plan.references[engine];
    if (spec) session.direct[engine] = plan.specs[spec.name] === spec ? running[spec.name] : await startTarget(spec, cpu);
  }
}

/** JIT, connection pools and caches, on every scenario and target, so that no target's first rounds measure its compilation; not recorded. */
async function warmUp(session: Session, budget: Budget): Promise<void> {
  const { warmupS } = session.options;
  if (warmupS <= 0) return;
  for (const scenario of session.plan.scenarios) {
    for (const target of Object.keys(scenario.targets)) {
      const step = { round: 0, scenario, target };
      if (!budget.fits(warmupS) || underTest(session, step)?.exited()) continue;
      await measure(session, step, warmupS);
      noteCrash(session, step);
    }
  }
}

async function rounds(session: Session, budget: Budget): Promise<void> {
  const { options, results } = session;
  for (const step of alternatingSteps(session.plan.scenarios, options.rounds)) {
    const where = { scenario: step.scenario.id, target: step.target, round: step.round };
    if (!budget.fits(options.durationS + 2) || underTest(session, step)?.exited()) {
      results.skipped.push(where);
      continue;
    }
    const measured = await measure(session, step, options.durationS);
    results.measurements.push({ ...where, measured });
    noteCrash(session, step);
    session.log(`[${Math.round(budget.elapsed())} s] ${describe(step, measured)}`);
  }
}

/** The log line of one measurement. */
function describe(step: Step, measured: Measured): string {
  const { scenario } = step;
  const errors = measured.firstError ? ` (${measured.firstError})` : '';
  const problems = measured.non2xx || measured.errors ? ` — ${measured.non2xx} non-2xx, ${measured.errors} errors${errors}` : '';
  const credential = scenario.credential ? ` (${scenario.credential})` : '';
  return (
    `round ${step.round} ${scenario.group} ${scenario.label}${credential} · ${step.target}: ` +
    `${Math.round(measured.rps)} req/s, p50 ${round(measured.p50, 2)} ms, p99 ${round(measured.p99, 2)} ms${problems}`
  );
}

/** The process a step measures. */
function underTest(session: Session, step: Step): Running | undefined {
  const ref = step.scenario.targets[step.target]!;
  return ref.kind === 'http' ? session.running[ref.process] : session.direct[ref.engine];
}

async function measure(session: Session, step: Step, durationS: number): Promise<Measured> {
  const { backends } = session;
  const { connections } = session.options;
  const { scenario } = step;
  const target = underTest(session, step)!;
  const databaseCpu = backends && scenario.group === 'postgres' ? () => databaseBackendsCpu(backends) : undefined;
  if (scenario.targets[step.target]!.kind === 'http') {
    const { token, http: requests } = scenario;
    return measureHttp({ url: target.url, token, requests, connections, durationS, pid: target.pid, databaseCpu });
  }
  // Direct SQL's CPU and memory are read from outside, as an HTTP target's; its CPU holds the callers' loop too.
  const rss = sampleRss(target.pid);
  const cpu = await cpuMeter(target.pid, databaseCpu);
  const run: DirectRun = { filters: scenario.direct!, concurrency: connections, durationMs: durationS * 1000 };
  const response = await fetch(`${target.url}/direct`, { method: 'POST', body: JSON.stringify(run) });
  if (!response.ok) throw new Error(`direct SQL in ${target.name}: ${response.status} ${await response.text()}`);
  const result = (await response.json()) as DirectResult;
  return { ...result, rps: result.requests / result.seconds, non2xx: 0, rssPeakMb: rss.stop(), ...(await cpu.stop(result.requests)) };
}

/** A process under test that has ended, noted once with its last stderr. */
function noteCrash(session: Session, step: Step): void {
  const target = underTest(session, step);
  const exit = target?.exited();
  const { crashes } = session.results;
  if (!target || !exit || crashes.some((c) => c.target === target.name)) return;
  crashes.push({ target: target.name, during: step.scenario.id, round: step.round, exit, stderr: target.stderr() });
  const when = step.round ? `round ${step.round} of` : 'the warm-up on';
  session.log(`${target.name} ${exit} during ${when} ${step.scenario.id}: ${target.stderr()}`);
}
