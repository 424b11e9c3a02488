// Two processes of the service measured side by side in alternating rounds, as the focused
// runs do (`--replica`: reading from a standby or the primary; `--tracing`: traces on or
// off): hello and person kinds for one credential, each on both, after a warm-up.
import type { Config } from '../server/config.js';
import type { Credential } from '../server/domain/credentials.js';
import type { FilterSamples } from './dataset/samples.js';
import { type Measured, measureHttp } from './loadHttp.js';
import type { BenchOptions } from './options.js';
import { alternatingSteps, type Scenario } from './plan.js';
import { type Running, startTarget, type TargetSpec } from './processes.js';
import { type PersonKind, personKinds, personWorkload } from './scenarios.js';
import { median, round } from './stats.js';

export interface Comparison {
  scenario: string;
  label: string;
  target: string;
  round: number;
  measured: Measured;
}

/** What both services are asked: hello, then each person kind, as one credential of one company. */
export interface Asked {
  token: string;
  companyId: string;
  kinds: readonly PersonKind[];
  samples: FilterSamples;
  held: Credential;
  config: Config;
}

/** Hello and each kind, each measured on both `targets` (by process name). */
export function sideBySideScenarios(targets: readonly string[], asked: Asked): Scenario[] {
  const on = Object.fromEntries(targets.map((name) => [name, { kind: 'http' as const, process: name }]));
  const hello: Scenario = {
    id: 'hello',
    group: 'postgres',
    label: 'hello',
    token: asked.token,
    http: [{ method: 'GET', path: `/v1/companies/${asked.companyId}/hello` }],
    targets: on,
  };
  const kinds = asked.kinds.map(
    (kind): Scenario => ({
      id: kind,
      group: 'postgres',
      label: personKinds[kind],
      kind,
      credential: 'oneLarge',
      token: asked.token,
      http: personWorkload(kind, asked.samples, asked.held, asked.config).http,
      targets: on,
    }),
  );
  return [hello, ...kinds];
}

/** The settings a side-by-side run measured with, as its results keep them. */
export type ComparedWith = Pick<BenchOptions, 'durationS' | 'rounds' | 'connections' | 'warmupS' | 'samples'>;
export const comparedWith = ({ durationS, rounds, connections, warmupS, samples }: BenchOptions): ComparedWith => ({
  durationS,
  rounds,
  connections,
  warmupS,
  samples,
});

/** Starts each spec in turn (pinned to `cpu`), adding it to `running` so that the caller stops it. */
export async function startServices(specs: TargetSpec[], cpu: number | undefined, running: Running[], log: (line: string) => void) {
  const services: Record<string, Running> = {};
  for (const spec of specs) {
    services[spec.name] = await startTarget(spec, cpu);
    running.push(services[spec.name]!);
    log(`${spec.name}: up`);
  }
  return services;
}

/** The warm-up of every scenario on every service, then the alternating rounds, each measurement logged. */
export async function compareSideBySide(
  services: Record<string, Running>,
  scenarios: Scenario[],
  options: Pick<BenchOptions, 'connections' | 'durationS' | 'warmupS' | 'rounds'>,
  log: (line: string) => void,
  databaseCpu?: () => Promise<Map<number, number>>,
): Promise<Comparison[]> {
  const measure = (scenario: Scenario, target: string, durationS: number) => {
    const { url, pid } = services[target]!;
    return measureHttp({ url, token: scenario.token, requests: scenario.http, connections: options.connections, durationS, pid, databaseCpu });
  };
  if (options.warmupS > 0)
    for (const scenario of scenarios) for (const target of Object.keys(scenario.targets)) await measure(scenario, target, options.warmupS);
  const comparison: Comparison[] = [];
  for (const step of alternatingSteps(scenarios, options.rounds)) {
    const measured = await measure(step.scenario, step.target, options.durationS);
    comparison.push({ scenario: step.scenario.id, label: step.scenario.label, target: step.target, round: step.round, measured });
    log(`round ${step.round} ${step.scenario.label} · ${step.target}: ${Math.round(measured.rps)} req/s, p99 ${round(measured.p99, 2)} ms`);
  }
  return comparison;
}

/** Each scenario measured, by id, with its label. */
export const comparedScenarios = (comparison: Comparison[]) => [...new Map(comparison.map((m) => [m.scenario, m.label])).entries()];

export interface TargetFigures {
  rps: number;
  p50: number;
  p99: number;
  /** CPU µs per request: the service process, and its database's backends (NaN where not measured). */
  serviceCpu: number;
  databaseCpu: number;
}

/** One scenario's figures on one target: medians over the rounds. */
export function targetFigures(comparison: Comparison[], scenario: string, target: string): TargetFigures {
  const runs = comparison.filter((m) => m.scenario === scenario && m.target === target).map((m) => m.measured);
  const of = (pick: (m: Measured) => number | undefined) => median(runs.map((m) => pick(m) ?? Number.NaN));
  return {
    rps: of((m) => m.rps),
    p50: of((m) => m.p50),
    p99: of((m) => m.p99),
    serviceCpu: of((m) => m.cpuUsPerRequest),
    databaseCpu: of((m) => m.dbCpuUsPerRequest),
  };
}

/** The lowest and highest of the rounds' own req/s ratios of `target` over `base`: how far the host's noise moves the ratio. */
export function roundRatios(comparison: Comparison[], scenario: string, target: string, base: string): [number, number] {
  const inRound = (name: string, round: number) => comparison.find((m) => m.scenario === scenario && m.target === name && m.round === round)?.measured.rps;
  const ratios = [...new Set(comparison.map((m) => m.round))]
    .map((round) => (inRound(target, round) ?? Number.NaN) / (inRound(base, round) ?? Number.NaN))
    .filter(Number.isFinite);
  return [Math.min(...ratios), Math.max(...ratios)];
}
