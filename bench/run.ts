// One full bench run (steps in bench/full/): datasets ready, processes and scenarios planned,
// measurements inside the time budget, then hello's instructions counted last, as a target
// under callgrind takes a core for minutes. Returns the raw results report.ts summarizes.
import { rmSync } from 'node:fs';
import { type FullMeasurements as Measurements, measureAll } from './full/measure.js';
import { type DatasetSummary, type Plan, planRun, prepareDatasets } from './full/plan.js';
import { callgrindAvailable, countInstructions, type InstructionCount } from './instructions.js';
import { beginRun, type RunStamp } from './machine.js';
import type { BenchOptions } from './options.js';
import type { Scenario } from './plan.js';
import { startBudget } from './rounds.js';
import { BARE_HELLO } from './targets.js';

export interface RunResult extends Omit<RunStamp, 'revision' | 'uncommittedServerFiles'>, Measurements {
  postgresVersion?: string;
  /** The server's shared_buffers: how much of the data its own cache can hold. */
  postgresSharedBuffers?: string;
  /** Whether pg_prewarm loaded the tables and indexes before measuring. */
  postgresPrewarmed?: boolean;
  options: Omit<BenchOptions, 'outDir'>;
  datasets: DatasetSummary[];
  scenarios: (Omit<Scenario, 'http' | 'direct' | 'token' | 'targets'> & { targets: string[]; requestPool: number; sampleRequest?: string })[];
  budget: { seconds: number; used: number; exhausted: boolean };
  /** Hello's instructions per request under callgrind, by target (the service and the bare reference), when counted. */
  helloInstructions?: Record<string, InstructionCount>;
  /** The stamp's commit and uncommitted files, in the shape latest.json has always had. */
  revision: { commit: string; uncommittedServerFiles: string[] };
}

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<RunResult> {
  const run = beginRun();
  const { pinning } = run.machine;
  log(pinning ? `load generator on CPU ${pinning.loadCpu}, processes under test on CPU ${pinning.targetCpu}` : 'no CPU pinning (needs taskset and 2+ cores)');
  // Datasets come first, outside the budget: a build is bounded by its size and skipped when present.
  const datasets = await prepareDatasets(options, log);
  const budget = startBudget(options.budgetS);
  run.measuring();
  const plan = await planRun(options, datasets);
  let measured: Measurements;
  try {
    measured = await measureAll(options, plan, budget, run.cpu, log);
  } finally {
    if (datasets.pgliteDirectCopy) rmSync(datasets.pgliteDirectCopy, { recursive: true, force: true });
  }
  const { skipped } = measured;
  if (skipped.length) log(`${skipped.length} measurements skipped (time budget of ${options.budgetS} s reached, or the target crashed)`);
  const budgetUsed = { seconds: options.budgetS, used: Math.round(budget.elapsed()), exhausted: skipped.length > 0 };
  const helloInstructions = await countHelloInstructions(options, plan, log);
  const { revision, uncommittedServerFiles, ...stamp } = run.stamp();
  return {
    ...stamp,
    postgresVersion: plan.postgres.version,
    postgresSharedBuffers: plan.postgres.sharedBuffers,
    postgresPrewarmed: plan.postgres.prewarmed,
    options: { ...options, outDir: undefined } as Omit<BenchOptions, 'outDir'>,
    datasets: plan.datasets,
    scenarios: plan.scenarios.map(scenarioSummary),
    ...measured,
    budget: budgetUsed,
    helloInstructions,
    revision: { commit: revision, uncommittedServerFiles },
  };
}

/** Hello's instructions per request of the service and the bare reference, where both ran and valgrind is installed. */
async function countHelloInstructions(options: BenchOptions, plan: Plan, log: (line: string) => void): Promise<Record<string, InstructionCount> | undefined> {
  const counted = [plan.hello.service, BARE_HELLO].filter((name) => plan.specs[name]);
  if (!options.instructions || counted.length !== 2 || !callgrindAvailable()) return undefined;
  const hello = { path: `/v1/companies/${plan.hello.companyId}/hello`, token: plan.hello.token };
  const counts: Record<string, InstructionCount> = {};
  for (const name of counted) {
    counts[name] = await countInstructions(plan.specs[name]!, hello, options.connections);
    log(`${name}: ${counts[name].perRequest.map((n) => Math.round(n)).join(', ')} instructions per hello (callgrind)`);
  }
  return counts;
}

/** A scenario as the report keeps it: its requests counted, the first shown, no token. */
function scenarioSummary({ http, direct: _, token: __, targets, ...rest }: Scenario): RunResult['scenarios'][number] {
  const first = http[0];
  return {
    ...rest,
    targets: Object.keys(targets),
    requestPool: http.length,
    sampleRequest: first && `${first.method} ${first.path}${first.body ? ` ${first.body}` : ''}`,
  };
}
