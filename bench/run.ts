// One bench run, step by step (bench/full/): datasets ready, processes and scenarios planned, measurements inside the time budget, then what is
// measured afterwards. Returns raw results; report.ts summarizes them.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import os from 'node:os';
import { countHelloInstructions } from './full/afterwards.js';
import { prepareDatasets } from './full/datasets.js';
import { type Measurements, measureAll, startBudget } from './full/measure.js';
import { type DatasetSummary, planRun } from './full/plan.js';
import type { InstructionCount } from './instructions.js';
import { describeMachine, type Machine, pinSelf } from './machine.js';
import type { BenchOptions } from './options.js';
import type { Scenario } from './plan.js';
import { round } from './stats.js';

export type { DatasetSummary } from './full/plan.js';

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
  measurements: Measurements['measurements'];
  skipped: Measurements['skipped'];
  crashes: Measurements['crashes'];
  budget: { seconds: number; used: number; exhausted: boolean };
  /** Hello's instructions per request under callgrind, by target (the service and the bare reference), when counted. */
  helloInstructions?: Record<string, InstructionCount>;
  /** 1-minute load average when measuring started and when it ended: how busy the (shared) machine was. */
  loadAverage: { start: number; end: number };
  /** The commit measured, and the server files that differed from it (uncommitted work). */
  revision: { commit: string; uncommittedServerFiles: string[] };
}

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const revision = measuredRevision();
  const machine = describeMachine();
  if (machine.pinning) pinSelf(machine.pinning.loadCpu);
  const cpu = machine.pinning?.targetCpu;
  log(machine.pinning ? `load generator on CPU ${machine.pinning.loadCpu}, processes under test on CPU ${cpu}` : 'no CPU pinning (needs taskset and 2+ cores)');

  // Datasets come first, outside the budget: a build is bounded by its size and skipped when present.
  const datasets = await prepareDatasets(options, log);
  const budget = startBudget(options.budgetS);
  const loadAtStart = os.loadavg()[0]!;
  const plan = await planRun(options, datasets);

  let measured: Measurements;
  try {
    measured = await measureAll(options, plan, budget, cpu, log);
  } finally {
    if (datasets.pgliteDirectCopy) rmSync(datasets.pgliteDirectCopy, { recursive: true, force: true });
  }
  const measurements = measured;
  const helloInstructions = await countHelloInstructions(options, plan, log);
  const loadAverage = { start: round(loadAtStart, 2), end: round(os.loadavg()[0]!, 2) };
  const { skipped } = measurements;
  if (skipped.length) log(`${skipped.length} measurements skipped (time budget of ${options.budgetS} s reached, or the target crashed)`);
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine,
    postgresVersion: plan.postgres.version,
    postgresSharedBuffers: plan.postgres.sharedBuffers,
    postgresPrewarmed: plan.postgres.prewarmed,
    options: { ...options, outDir: undefined } as Omit<BenchOptions, 'outDir'>,
    datasets: plan.datasets,
    scenarios: plan.scenarios.map(scenarioSummary),
    ...measurements,
    budget: { seconds: options.budgetS, used: Math.round(budget.elapsed()), exhausted: skipped.length > 0 },
    helloInstructions,
    loadAverage,
    revision,
  };
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

function measuredRevision(): RunResult['revision'] {
  const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' }).stdout?.trim() ?? '';
  return {
    commit: git('rev-parse', '--short', 'HEAD') || 'unknown',
    uncommittedServerFiles: git('status', '--porcelain', '--', 'server')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3)),
  };
}
