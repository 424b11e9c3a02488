// The replica run's figures (run.ts) as a section of bench/results/latest.md (sections.ts):
// `--replica` writes it, and a full run keeps the last one, since a full run does not
// measure replicas.
import { fmt, latencyMs as ms, pct, table } from '../report/format.js';
import { focusedSection, ranAs } from '../sections.js';
import { comparedScenarios, comparedWithText, roundSpread, type TargetFigures, targetFigures, type Versus, versus } from '../sideBySide.js';
import { FROM_PRIMARY, FROM_REPLICA, type ReplicaRunResult } from './results.js';

/** The routing may cost at most this share of the throughput (replica / primary). */
export const ROUTING_FLOOR = 0.95;

type ReplicaRow = { label: string; primary: TargetFigures; replica: Versus };

/** Each scenario's medians over the rounds: from the primary, and from a replica against it. */
export function replicaRows(result: ReplicaRunResult): ReplicaRow[] {
  return comparedScenarios(result.comparison).map(([scenario, label]) => ({
    label,
    primary: targetFigures(result.comparison, scenario, FROM_PRIMARY),
    replica: versus(result.comparison, scenario, FROM_REPLICA, FROM_PRIMARY),
  }));
}

/** The run's summary, a line a scenario. */
export const replicaSummary = (result: ReplicaRunResult) =>
  replicaRows(result).map(({ label, replica: r }) => ({
    goal: label,
    measured: `replica / primary ${pct(r.ratio)} by req/s, ${pct(r.cpuRatio)} by CPU per request`,
  }));

function renderReplicas(result: ReplicaRunResult): string[] {
  const rows = replicaRows(result);
  const { dataset: d } = result;
  const postgres = result.postgresVersion?.split(' on ')[0] ?? 'PostgreSQL';
  const asked = `${fmt(d.people)} people over ${fmt(d.companies)} companies, as the credential of one large company (${d.credentialCompanies} company)`;
  return [
    '## Replicas (PostgreSQL streaming replication)',
    '',
    ranAs('replica', result, `${asked}; ${comparedWithText(result.options)}`),
    `A primary and a hot standby of the bench's own (${postgres}, durability on, shared_buffers 256MB, both prewarmed) on the same two cores: ` +
      'the ratio is what the routing costs, not what a replica adds ([docs/performance.md](../../docs/performance.md#replicas)).',
    '',
    ...routingTarget(result, rows),
    ...comparisonTable(rows),
  ];
}

/** The goal, side by side over HTTP by CPU per request, then the routing measured alone. */
function routingTarget(result: ReplicaRunResult, rows: ReplicaRow[]): string[] {
  const lowest = (by: (v: Versus) => number) => rows.reduce((low, row) => (by(row.replica) < by(low.replica) ? row : low), rows[0]!);
  const [byCpu, byRate] = [lowest((v) => v.cpuRatio), lowest((v) => v.ratio)];
  const met = byCpu.replica.cpuRatio >= ROUTING_FLOOR ? 'met' : 'not met';
  const spread = roundSpread(rows.map((r) => r.replica));
  return [
    `**Target: reading from a replica costs at most ${pct(1 - ROUTING_FLOOR)} of the throughput.** ` +
      `Side by side over HTTP, by CPU time per request the lowest ratio is ${pct(byCpu.replica.cpuRatio)} (${byCpu.label}), ` +
      `by req/s ${pct(byRate.replica.ratio)} (${byRate.label}) — **${met}**; ` +
      `the rounds' own ratios spread over ${spread}, so this run cannot tell ${pct(1 - ROUTING_FLOOR)} apart.${routingVerdict(result, rows)}`,
    '',
  ];
}

function comparisonTable(rows: ReplicaRow[]): string[] {
  const header = ['Operation / filter', 'from the primary req/s', 'from a replica req/s', 'replica / primary', 'rounds', 'primary CPU µs/req'];
  header.push('replica CPU µs/req', 'replica / primary (CPU)', 'primary p99 ms', 'replica p99 ms');
  const cpu = (t: TargetFigures) => `${fmt(t.serviceCpu, 0)} + ${fmt(t.databaseCpu, 0)}`;
  return table(
    header,
    rows.map(({ label, primary: p, replica: r }) => {
      const rounds = `${pct(r.roundRatios[0])}–${pct(r.roundRatios[1])}`;
      return [label, fmt(p.rps), fmt(r.rps), pct(r.ratio), rounds, cpu(p), cpu(r), pct(r.cpuRatio), ms(p.p99), ms(r.p99)];
    }),
  );
}

/** The routing measured alone (run.ts): its extra CPU per read against the whole request's on the primary-reading service. */
function routingVerdict(result: ReplicaRunResult, rows: ReplicaRow[]): string {
  if (!result.routing?.length) return '';
  const parts = result.routing.map((r) => {
    const row = rows.find((x) => x.label === r.label);
    const whole = row ? row.primary.serviceCpu + row.primary.databaseCpu : Number.NaN;
    return { ...r, share: (r.routerUs - r.primaryUs) / whole };
  });
  const worst = Math.max(...parts.map((p) => p.share));
  const sign = (share: number) => (Number.isFinite(share) ? `${share >= 0 ? '+' : '−'}${Math.abs(Math.round(share * 1000) / 10)}%` : '–');
  const each = parts.map(
    (p) =>
      `${p.label} ${fmt(p.primaryUs, 1)} on the primary, ${fmt(p.routerUs, 1)} through the router (${fmt(p.reads)} reads each): ${sign(p.share)} of the request's CPU`,
  );
  return (
    ` The routing alone, in the bench's own process (alternating blocks of the person query's client side, CPU µs per read): ${each.join('; ')}` +
    ` — **${worst <= 1 - ROUTING_FLOOR ? 'met' : 'not met'}**.`
  );
}

export const replicaSection = focusedSection('replicas', 'replica', renderReplicas);
