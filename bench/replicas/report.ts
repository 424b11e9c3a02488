// The replica run's figures (run.ts) as a section of bench/results/latest.md, kept between
// two markers: `--replica` replaces it there, and a full run keeps the last one (saying
// which run it comes from), since a full run does not measure replicas.
import { fmt, latencyMs as ms, pct, table } from '../report/format.js';
import { type ResultsSection, withResultsSection, writeResultsSection } from '../sections.js';
import { comparedScenarios, roundRatios, type TargetFigures, targetFigures } from '../sideBySide.js';
import { FROM_PRIMARY, FROM_REPLICA, type ReplicaRunResult } from './results.js';

const BEGIN = '<!-- replicas: written by npm run bench -- --replica -->';
const END = '<!-- /replicas -->';
export const REPLICA_RESULTS = 'replicas.json';
/** The routing may cost at most this share of the throughput (replica / primary). */
export const ROUTING_FLOOR = 0.95;

const cpu = (t: { serviceCpu: number; databaseCpu: number }) => `${fmt(t.serviceCpu, 0)} + ${fmt(t.databaseCpu, 0)}`;

export interface ReplicaRow {
  label: string;
  primary: TargetFigures;
  replica: TargetFigures;
  /** Replica over primary, by req/s, and by CPU per request (primary's CPU over the replica's: the rate a CPU-bound machine would show). */
  ratio: number;
  cpuRatio: number;
  /** The lowest and highest of the rounds' own ratios (by req/s): how far the host's noise moves it. */
  roundRatios: [number, number];
}

/** Each scenario's medians over the rounds, per target. */
export function replicaRows(result: ReplicaRunResult): ReplicaRow[] {
  return comparedScenarios(result.comparison).map(([scenario, label]) => {
    const of = (target: string) => targetFigures(result.comparison, scenario, target);
    const primary = of(FROM_PRIMARY);
    const replica = of(FROM_REPLICA);
    const total = (t: TargetFigures) => t.serviceCpu + (Number.isFinite(t.databaseCpu) ? t.databaseCpu : 0);
    return {
      label,
      primary,
      replica,
      ratio: replica.rps / primary.rps,
      cpuRatio: total(primary) / total(replica),
      roundRatios: roundRatios(result.comparison, scenario, FROM_REPLICA, FROM_PRIMARY),
    };
  });
}

export function renderReplicaSection(result: ReplicaRunResult): string {
  const rows = replicaRows(result);
  const lines = [...replicaHeader(result), ...routingTarget(result, rows), ...comparisonTable(rows), ...changeLines(result)];
  return `${BEGIN}\n${lines.join('\n')}\n${END}\n`;
}

function replicaHeader(result: ReplicaRunResult): string[] {
  const { options: o, dataset: d } = result;
  const postgres = result.postgresVersion?.split(' on ')[0] ?? 'PostgreSQL';
  return [
    '## Replicas (PostgreSQL streaming replication)',
    '',
    `From \`npm run bench -- --replica\`: run ${result.startedAt} → ${result.finishedAt}, commit ${result.revision}; ` +
      `${fmt(d.people)} people over ${fmt(d.companies)} companies, as the credential of one large company (${d.credentialCompanies} company); ` +
      `${o.durationS} s per measurement, ${o.connections} connections, ${o.rounds} alternating rounds (medians), after ${o.warmupS} s of warm-up; ` +
      `load average (1 min) ${result.loadAverage.start} at the start, ${result.loadAverage.end} at the end.`,
    `A primary and a hot standby of the bench's own (${postgres}, durability on, shared_buffers 256MB, both prewarmed) on the same two cores: ` +
      'the ratio is what the routing costs, not what a replica adds ([docs/performance.md](../../docs/performance.md#replicas)).',
    '',
  ];
}

/** The goal, side by side over HTTP by CPU per request, then the routing measured alone. */
function routingTarget(result: ReplicaRunResult, rows: ReplicaRow[]): string[] {
  const lowest = rows.reduce((low, row) => (row.cpuRatio < low.cpuRatio ? row : low), rows[0]!);
  const lowestRate = rows.reduce((low, row) => (row.ratio < low.ratio ? row : low), rows[0]!);
  const spread = `${pct(Math.min(...rows.map((r) => r.roundRatios[0])))}–${pct(Math.max(...rows.map((r) => r.roundRatios[1])))}`;
  const met = lowest.cpuRatio >= ROUTING_FLOOR ? 'met' : 'not met';
  return [
    `**Target: reading from a replica costs at most ${pct(1 - ROUTING_FLOOR)} of the throughput.** ` +
      `Side by side over HTTP, by CPU time per request the lowest ratio is ${pct(lowest.cpuRatio)} (${lowest.label}), ` +
      `by req/s ${pct(lowestRate.ratio)} (${lowestRate.label}) — **${met}**; ` +
      `the rounds' own ratios spread over ${spread}, so this run cannot tell ${pct(1 - ROUTING_FLOOR)} apart.${routingVerdict(result, rows)}`,
    '',
  ];
}

function comparisonTable(rows: ReplicaRow[]): string[] {
  const header = ['Operation / filter', 'from the primary req/s', 'from a replica req/s', 'replica / primary', 'rounds'];
  header.push('primary CPU µs/req', 'replica CPU µs/req', 'replica / primary (CPU)', 'primary p99 ms', 'replica p99 ms');
  const cells = rows.map((r) => {
    const rounds = `${pct(r.roundRatios[0])}–${pct(r.roundRatios[1])}`;
    const latencies = [ms(r.primary.p99), ms(r.replica.p99)];
    return [r.label, fmt(r.primary.rps), fmt(r.replica.rps), pct(r.ratio), rounds, cpu(r.primary), cpu(r.replica), pct(r.cpuRatio), ...latencies];
  });
  return table(header, cells);
}

/** The lag and the searches' latency while a change file was applied to the primary. */
function changeLines({ change, options: o }: ReplicaRunResult): string[] {
  if (!change) return [];
  const { lag, idle, during } = change;
  const readTotal = Object.values(change.reads).reduce((a, b) => a + b, 0);
  const reads = Object.entries(change.reads).map(([role, n]) => `${role} ${fmt(n)} (${pct(readTotal ? n / readTotal : 0)})`);
  const searches = (what: string, f: typeof idle) => [what, fmt(f.requests), String(f.seconds), ms(f.p50), ms(f.p99), String(f.non2xx)];
  return [
    '',
    '### A change file applied while reading from the replica',
    '',
    `${change.description}: ${fmt(change.records)} records, applied with \`npm run import\` to the primary in ${change.importSeconds} s ` +
      `while searches (the filter kinds above, ${o.connections} connections) read from the replica through the service.`,
    `The standby's heartbeat age (what \`REPLICA_MAX_LAG_MS\` bounds), sampled every 100 ms until it had replayed the file (${lag.samples} samples): ` +
      `p50 ${ms(lag.p50Ms)} ms, p99 ${ms(lag.p99Ms)} ms, max ${ms(lag.maxMs)} ms. ` +
      `Over the bound (${fmt(o.replicaMaxLagMs)} ms) for ${fmt(lag.overBoundMs)} ms.`,
    `Reads answered meanwhile: ${reads.join(', ')}.`,
    '',
    ...table(
      ['Searches from the replica', 'answered', 'seconds', 'p50 ms', 'p99 ms', 'non-2xx'],
      [searches('idle', idle), searches('while the file is applied', during)],
    ),
  ];
}

/**
 * The routing measured alone (run.ts routingCost): its extra CPU per read against the
 * whole request's CPU on the primary-reading service, as measured side by side.
 */
function routingVerdict(result: ReplicaRunResult, rows: ReplicaRow[]): string {
  if (!result.routing?.length) return '';
  const parts = result.routing.map((r) => {
    const row = rows.find((x) => x.label === r.label);
    const whole = row ? row.primary.serviceCpu + row.primary.databaseCpu : Number.NaN;
    return { ...r, share: (r.routerUs - r.primaryUs) / whole };
  });
  const worst = Math.max(...parts.map((p) => p.share));
  return (
    ` The routing alone, in the bench's own process (alternating blocks of the person query's client side, CPU µs per read): ` +
    parts
      .map(
        (p) =>
          `${p.label} ${fmt(p.primaryUs, 1)} on the primary, ${fmt(p.routerUs, 1)} through the router (${fmt(p.reads)} reads each): ${sign(p.share)} of the request's CPU`,
      )
      .join('; ') +
    ` — **${worst <= 1 - ROUTING_FLOOR ? 'met' : 'not met'}**.`
  );
}

const sign = (share: number) => (Number.isFinite(share) ? `${share >= 0 ? '+' : '−'}${Math.abs(Math.round(share * 1000) / 10)}%` : '–');

const section: ResultsSection<ReplicaRunResult> = { begin: BEGIN, end: END, resultsFile: REPLICA_RESULTS, render: renderReplicaSection };

/** latest.md with the replica section (from `outDir`'s replicas.json) in place of the one it holds, or at its end. */
export const withReplicaSection = (markdown: string, outDir: string): string => withResultsSection(markdown, outDir, section);

/** Writes the replica run's figures and its section of latest.md. */
export const writeReplicaResults = (result: ReplicaRunResult, outDir: string): void => writeResultsSection(result, outDir, section);
