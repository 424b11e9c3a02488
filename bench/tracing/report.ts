// The tracing run's figures (run.ts) as a section of bench/results/latest.md (sections.ts):
// `--tracing` writes it, and a full run keeps the last one, since a full run measures the
// service with traces off only.
import { fmt, latencyMs as ms, pct } from '../report/format.js';
import { focusedSection, ranAs } from '../sections.js';
import { comparedScenarios, comparedWithText, roundSpread, type TargetFigures, targetFigures, type Versus, versus } from '../sideBySide.js';
import { SAMPLED_RATIO, TRACES_OFF, TRACES_ON, TRACES_SAMPLED, type TracingRunResult } from './run.js';

/** Traces on may cost at most this share of the throughput (issue 49). */
export const TRACING_FLOOR = 0.85;

type TracingRow = { label: string; off: TargetFigures; on: Versus; sampled: Versus };

/** Each scenario's medians over the rounds: traces off, then on and one request in ten sampled (NaN in runs from before it was measured), each against off. */
export function tracingRows(result: TracingRunResult): TracingRow[] {
  return comparedScenarios(result.comparison).map(([scenario, label]) => ({
    label,
    off: targetFigures(result.comparison, scenario, TRACES_OFF),
    on: versus(result.comparison, scenario, TRACES_ON, TRACES_OFF),
    sampled: versus(result.comparison, scenario, TRACES_SAMPLED, TRACES_OFF),
  }));
}

/**
 * The goal, as the run's summary line says it. Judged by CPU time per request where it was
 * measured: on a shared host the rate moves with the other work, the CPU a request takes much less.
 */
export function tracingGoal(result: TracingRunResult): { goal: string; measured: string; met: boolean } {
  const rows = tracingRows(result);
  const byCpu = rows.every((r) => Number.isFinite(r.on.cpuRatio));
  return {
    goal: `Traces on (every request sampled) cost at most ${pct(1 - TRACING_FLOOR)} of hello and Get person throughput (judged by ${byCpu ? 'CPU per request' : 'req/s'})`,
    measured: `on / off: ${rows.map((r) => `${r.label} ${pct(r.on.cpuRatio)} by CPU per request, ${pct(r.on.ratio)} by req/s`).join('; ')}`,
    met: rows.every((r) => (byCpu ? r.on.cpuRatio : r.on.ratio) >= TRACING_FLOOR),
  };
}

function renderTracing(result: TracingRunResult): string[] {
  const rows = tracingRows(result);
  const goal = tracingGoal(result);
  const oneIn = Math.round(1 / SAMPLED_RATIO);
  return [
    '## Tracing cost (OpenTelemetry traces on / off)',
    '',
    ranAs(
      'tracing',
      result,
      `PostgreSQL bench dataset of ${fmt(result.options.people)} people, the credential of one large company; ${comparedWithText(result.options)}`,
    ),
    'The built service side by side: traces off (no `OTEL_*` variable), on with the defaults (`OTEL_EXPORTER_OTLP_ENDPOINT` only: ' +
      '`parentbased_always_on`, every request sampled; OTLP/HTTP protobuf, batches every 5 s), and on with ' +
      `\`parentbased_traceidratio\` at ${SAMPLED_RATIO} (one request in ${oneIn} sampled), exporting to a sink on loopback that discards ` +
      `what it gets (${fmt(result.sink.batches)} batches, ${fmt(result.sink.bytes / 1024 / 1024, 1)} MiB received). A hello makes one span ` +
      '(its credential is cached), a Get person two (the request and its statement).',
    '',
    `**Target: ${goal.goal}.** ${goal.measured} — **${goal.met ? 'met' : 'not met'}**; the rounds' own ratios spread over ${roundSpread(rows.map((r) => r.on))}.`,
    '',
    'CPU µs/req: CPU time of the service process per answered request; "on / off (CPU)" is off\'s over on\'s, the rate ratio a CPU-bound machine would show.',
    '',
    '| Operation | traces off req/s | traces on req/s | on / off | rounds | off CPU µs/req | on CPU µs/req | on / off (CPU) | off p50 ms | on p50 ms | off p99 ms | on p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ label, off, on }) =>
        `| ${label} | ${fmt(off.rps)} | ${fmt(on.rps)} | ${pct(on.ratio)} | ${pct(on.roundRatios[0])}–${pct(on.roundRatios[1])} | ` +
        `${fmt(off.serviceCpu)} | ${fmt(on.serviceCpu)} | ${pct(on.cpuRatio)} | ${ms(off.p50)} | ${ms(on.p50)} | ${ms(off.p99)} | ${ms(on.p99)} |`,
    ),
    '',
    `One request in ${oneIn} sampled (not a goal: what a share costs):`,
    '',
    '| Operation | req/s | CPU µs/req | on / off (CPU) | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(({ label, sampled }) => `| ${label} | ${fmt(sampled.rps)} | ${fmt(sampled.serviceCpu)} | ${pct(sampled.cpuRatio)} | ${ms(sampled.p99)} |`),
  ];
}

export const tracingSection = focusedSection('tracing', 'tracing', renderTracing);
