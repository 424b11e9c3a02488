// Services side by side, as the focused runs measure them (`--replica`: reading from a standby
// or the primary; `--tracing`: traces off, on, sampled): hello and person kinds as one
// credential on every service (rounds.ts); and how one service's figures read against another's.
import type { Measured } from './loadHttp.js';
import type { BenchOptions } from './options.js';
import type { Scenario } from './plan.js';
import { type Running, startTarget, type TargetSpec } from './processes.js';
import { pct } from './report/format.js';
import { measureRounds } from './rounds.js';
import { type AskedAs, helloAs, type PersonKind, personKinds, personRequests } from './scenarios.js';
import { median } from './stats.js';

export interface Comparison {
  scenario: string;
  label: string;
  target: string;
  round: number;
  measured: Measured;
}

/** The settings a side-by-side run measured with, as its results keep them. */
const COMPARED_WITH = ['durationS', 'rounds', 'connections', 'warmupS', 'samples'] as const;
export type ComparedWith = Pick<BenchOptions, (typeof COMPARED_WITH)[number]>;
export const comparedWith = (o: BenchOptions) => Object.fromEntries(COMPARED_WITH.map((key) => [key, o[key]])) as ComparedWith;
export const comparedWithText = (o: ComparedWith) =>
  `${o.durationS} s per measurement, ${o.connections} connections, ${o.rounds} alternating rounds (medians), after ${o.warmupS} s of warm-up`;

export interface SideBySide {
  /** What runs the comparison: the caller stops every process in `running`, started or not. */
  options: BenchOptions;
  cpu: number | undefined;
  running: Running[];
  log: (line: string) => void;
  /** CPU time so far of each backend of the services' databases (as HttpLoad's, loadHttp.ts). */
  databaseCpu?: () => Promise<Map<number, number>>;
}

/** Starts every service of `specs` in turn (pinned), then measures hello and each of `kinds` as `asked` on each (rounds.ts). */
export async function compareSideBySide(specs: TargetSpec[], kinds: readonly PersonKind[], asked: Pick<AskedAs, 'credential' | 'samples'>, run: SideBySide) {
  const services: Record<string, Running> = {};
  for (const spec of specs) {
    services[spec.name] = await startTarget(spec, run.cpu);
    run.running.push(services[spec.name]!);
  }
  const targets = Object.fromEntries(specs.map(({ name }) => [name, { kind: 'http' as const, process: name }]));
  const { companyId, token } = helloAs(asked.credential);
  const scenarios: Scenario[] = [
    { id: 'hello', group: 'postgres', label: 'hello', token, http: [{ method: 'GET', path: `/v1/companies/${companyId}/hello` }], targets },
    ...kinds.map((kind): Scenario => {
      const http = personRequests(kind, asked.samples);
      return { id: kind, group: 'postgres', label: personKinds[kind], kind, credential: 'oneLarge', token, http, targets };
    }),
  ];
  const databaseCpu = run.databaseCpu && (() => run.databaseCpu);
  const { measurements, crashes } = await measureRounds({ scenarios, running: services, settings: run.options, databaseCpu, log: run.log });
  if (crashes.length) throw new Error(`${crashes[0]!.target} ${crashes[0]!.exit}: ${crashes[0]!.stderr}`);
  const labels = new Map(scenarios.map((s) => [s.id, s.label]));
  const comparison: Comparison[] = measurements.map((m) => ({ ...m, label: labels.get(m.scenario)! }));
  return { services, scenarios, comparison };
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

/** CPU µs per request of the service and, where measured, its database's backends. */
export const totalCpu = (t: TargetFigures) => t.serviceCpu + (Number.isFinite(t.databaseCpu) ? t.databaseCpu : 0);

export interface Versus extends TargetFigures {
  /** Over the base by req/s, and by CPU per request (the base's CPU over this one's: the rate a CPU-bound machine would show). */
  ratio: number;
  cpuRatio: number;
  /** The lowest and highest of the rounds' own req/s ratios: how far the host's noise moves the ratio. */
  roundRatios: [number, number];
}

/** One scenario's figures on `target`, set against `base`'s. */
export function versus(comparison: Comparison[], scenario: string, target: string, base: string): Versus {
  const [ours, theirs] = [targetFigures(comparison, scenario, target), targetFigures(comparison, scenario, base)];
  const inRound = (name: string, round: number) => comparison.find((m) => m.scenario === scenario && m.target === name && m.round === round)?.measured.rps;
  const ratios = [...new Set(comparison.map((m) => m.round))]
    .map((round) => (inRound(target, round) ?? Number.NaN) / (inRound(base, round) ?? Number.NaN))
    .filter(Number.isFinite);
  return { ...ours, ratio: ours.rps / theirs.rps, cpuRatio: totalCpu(theirs) / totalCpu(ours), roundRatios: [Math.min(...ratios), Math.max(...ratios)] };
}

/** The spread of the rounds' own ratios over several rows: "66%–141%". */
export const roundSpread = (rows: Versus[]) => `${pct(Math.min(...rows.map((r) => r.roundRatios[0])))}–${pct(Math.max(...rows.map((r) => r.roundRatios[1])))}`;
