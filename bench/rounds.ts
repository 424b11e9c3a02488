// The measurements of a run, after its processes are up: a warm-up of every scenario on every
// target, then the alternating rounds (plan.ts), each logged. A process under test that ends
// is noted once, with its last stderr, and its later measurements skipped. The full run and
// the focused runs (--replica, --tracing) measure alike.
import { cpuMeter, sampleRss } from './cpu.js';
import { type Measured, measureHttp } from './loadHttp.js';
import type { BenchOptions } from './options.js';
import { alternatingSteps, type Engine, type Scenario, type Step } from './plan.js';
import type { Running } from './processes.js';
import type { DirectResult, DirectRun } from './references/bareSearch.js';
import { round } from './stats.js';

/** Seconds since the budget started, and whether `more` seconds still fit in it. */
export function startBudget(seconds: number) {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  return { elapsed, fits: (more: number) => elapsed() + more <= seconds };
}
type Budget = ReturnType<typeof startBudget>;

export interface Rounds {
  scenarios: Scenario[];
  /** The HTTP processes, by name, and each engine's direct-SQL reference. */
  running: Record<string, Running>;
  direct?: Partial<Record<Engine, Running>>;
  settings: Pick<BenchOptions, 'warmupS' | 'durationS' | 'rounds' | 'connections'>;
  budget?: Budget;
  /** The CPU time so far of the database backends a scenario's measurement reads, where the bench can read them. */
  databaseCpu?: (scenario: Scenario) => (() => Promise<Map<number, number>>) | undefined;
  log: (line: string) => void;
}

type Where = { scenario: string; target: string; round: number };
export interface Measurements {
  measurements: (Where & { measured: Measured })[];
  /** Steps the budget or a crash left out. */
  skipped: Where[];
  crashes: { target: string; during: string; round: number; exit: string; stderr: string }[];
}

export async function measureRounds(r: Rounds): Promise<Measurements> {
  const budget = r.budget ?? startBudget(Number.POSITIVE_INFINITY);
  const results: Measurements = { measurements: [], skipped: [], crashes: [] };
  const { warmupS, durationS, rounds } = r.settings;
  // JIT, pools and caches warmed on every scenario and target, not recorded.
  for (const scenario of warmupS > 0 ? r.scenarios : []) {
    for (const target of Object.keys(scenario.targets)) {
      const step = { round: 0, scenario, target };
      if (!budget.fits(warmupS) || underTest(r, step)?.exited()) continue;
      await measure(r, step, warmupS);
      noteCrash(r, step, results);
    }
  }
  for (const step of alternatingSteps(r.scenarios, rounds)) {
    const where = { scenario: step.scenario.id, target: step.target, round: step.round };
    if (!budget.fits(durationS + 2) || underTest(r, step)?.exited()) {
      results.skipped.push(where);
      continue;
    }
    const measured = await measure(r, step, durationS);
    results.measurements.push({ ...where, measured });
    noteCrash(r, step, results);
    r.log(`[${Math.round(budget.elapsed())} s] ${describe(step, measured)}`);
  }
  return results;
}

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

function underTest(r: Rounds, step: Step): Running | undefined {
  const ref = step.scenario.targets[step.target]!;
  return ref.kind === 'http' ? r.running[ref.process] : r.direct?.[ref.engine];
}

async function measure(r: Rounds, step: Step, durationS: number): Promise<Measured> {
  const { connections } = r.settings;
  const { scenario } = step;
  const target = underTest(r, step)!;
  const databaseCpu = r.databaseCpu?.(scenario);
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

function noteCrash(r: Rounds, step: Step, { crashes }: Measurements): void {
  const target = underTest(r, step);
  const exit = target?.exited();
  if (!target || !exit || crashes.some((c) => c.target === target.name)) return;
  crashes.push({ target: target.name, during: step.scenario.id, round: step.round, exit, stderr: target.stderr() });
  const when = step.round ? `round ${step.round} of` : 'the warm-up on';
  r.log(`${target.name} ${exit} during ${when} ${step.scenario.id}: ${target.stderr()}`);
}
