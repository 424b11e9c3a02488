// The tracing run's figures (run.ts) as a section of bench/results/latest.md, between two
// markers: `--tracing` replaces it there, and a full run keeps the last one (saying which
// run it comes from), since a full run measures the service with traces off only.
import { fmt, latencyMs as ms, pct } from '../report/format.js';
import { type ResultsSection, withResultsSection, writeResultsSection } from '../sections.js';
import { comparedScenarios, roundRatios, type TargetFigures, targetFigures } from '../sideBySide.js';
import { SAMPLED_RATIO, TRACES_OFF, TRACES_ON, TRACES_SAMPLED, type TracingRunResult } from './run.js';

const BEGIN = '<!-- tracing: written by npm run bench -- --tracing -->';
const END = '<!-- /tracing -->';
export const TRACING_RESULTS = 'tracing.json';
/** Traces on may cost at most this share of the throughput (issue 49). */
export const TRACING_FLOOR = 0.85;

export interface TracingRow {
  label: string;
  off: TargetFigures;
  on: TargetFigures;
  /** One request in ten sampled (absent from runs before it was measured: NaN). */
  sampled: TargetFigures;
  /** On over off by req/s, and by CPU per request (off's CPU over on's: the rate a CPU-bound machine would show). */
  ratio: number;
  cpuRatio: number;
  /** The same by CPU per request, for one request in ten sampled. */
  sampledCpuRatio: number;
  /** The lowest and highest of the rounds' own req/s ratios: how far the host's noise moves it. */
  roundRatios: [number, number];
}

/** Each scenario's medians over the rounds, traces on and off. */
export function tracingRows(result: TracingRunResult): TracingRow[] {
  return comparedScenarios(result.comparison).map(([scenario, label]) => {
    const of = (target: string) => targetFigures(result.comparison, scenario, target);
    const [off, on, sampled] = [of(TRACES_OFF), of(TRACES_ON), of(TRACES_SAMPLED)];
    const rounds = roundRatios(result.comparison, scenario, TRACES_ON, TRACES_OFF);
    return {
      label,
      off,
      on,
      sampled,
      ratio: on.rps / off.rps,
      cpuRatio: off.serviceCpu / on.serviceCpu,
      sampledCpuRatio: off.serviceCpu / sampled.serviceCpu,
      roundRatios: rounds,
    };
  });
}

/**
 * The goal, as the run's summary line says it. Judged by CPU time per request where it was
 * measured: on a shared host the rate moves with the other work, the CPU a request takes much less.
 */
export function tracingGoal(result: TracingRunResult): { goal: string; measured: string; met: boolean } {
  const rows = tracingRows(result);
  const byCpu = rows.every((r) => Number.isFinite(r.cpuRatio));
  return {
    goal: `Traces on (every request sampled) cost at most ${pct(1 - TRACING_FLOOR)} of hello and Get person throughput (judged by ${byCpu ? 'CPU per request' : 'req/s'})`,
    measured: `on / off: ${rows.map((r) => `${r.label} ${pct(r.cpuRatio)} by CPU per request, ${pct(r.ratio)} by req/s`).join('; ')}`,
    met: rows.every((r) => (byCpu ? r.cpuRatio : r.ratio) >= TRACING_FLOOR),
  };
}

export function renderTracingSection(result: TracingRunResult): string {
  const rows = tracingRows(result);
  const goal = tracingGoal(result);
  const o = result.options;
  const lines = [
    '## Tracing cost (OpenTelemetry traces on / off)',
    '',
    `From \`npm run bench -- --tracing\`: run ${result.startedAt} → ${result.finishedAt}, commit ${result.revision}; PostgreSQL bench dataset of ` +
      `${fmt(o.people)} people, the credential of one large company; ${o.durationS} s per measurement, ${o.connections} connections, ` +
      `${o.rounds} alternating rounds (medians), after ${o.warmupS} s of warm-up; load average (1 min) ${result.loadAverage.start} at the start, ` +
      `${result.loadAverage.end} at the end.`,
    'The built service side by side: traces off (no `OTEL_*` variable), on with the defaults (`OTEL_EXPORTER_OTLP_ENDPOINT` only: ' +
      '`parentbased_always_on`, every request sampled; OTLP/HTTP protobuf, batches every 5 s), and on with ' +
      `\`parentbased_traceidratio\` at ${SAMPLED_RATIO} (one request in ${Math.round(1 / SAMPLED_RATIO)} sampled), exporting to a sink on loopback that discards ` +
      `what it gets (${fmt(result.sink.batches)} batches, ${fmt(result.sink.bytes / 1024 / 1024, 1)} MiB received). A hello makes one span ` +
      '(its credential is cached), a Get person two (the request and its statement).',
    '',
    `**Target: ${goal.goal}.** ${goal.measured} — **${goal.met ? 'met' : 'not met'}**; the rounds' own ratios spread over ` +
      `${pct(Math.min(...rows.map((r) => r.roundRatios[0])))}–${pct(Math.max(...rows.map((r) => r.roundRatios[1])))}.`,
    ...spanFloorLines(result, rows),
    '',
    'CPU µs/req: CPU time of the service process per answered request; "on / off (CPU)" is off\'s over on\'s, the rate ratio a CPU-bound machine would show.',
    '',
    '| Operation | traces off req/s | traces on req/s | on / off | rounds | off CPU µs/req | on CPU µs/req | on / off (CPU) | off p50 ms | on p50 ms | off p99 ms | on p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${fmt(r.off.rps)} | ${fmt(r.on.rps)} | ${pct(r.ratio)} | ${pct(r.roundRatios[0])}–${pct(r.roundRatios[1])} | ` +
        `${fmt(r.off.serviceCpu)} | ${fmt(r.on.serviceCpu)} | ${pct(r.cpuRatio)} | ${ms(r.off.p50)} | ${ms(r.on.p50)} | ${ms(r.off.p99)} | ${ms(r.on.p99)} |`,
    ),
    '',
    `One request in ${Math.round(1 / SAMPLED_RATIO)} sampled (not a goal: what a share costs):`,
    '',
    '| Operation | req/s | CPU µs/req | on / off (CPU) | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.label} | ${fmt(r.sampled.rps)} | ${fmt(r.sampled.serviceCpu)} | ${pct(r.sampledCpuRatio)} | ${ms(r.sampled.p99)} |`),
  ];
  return `${BEGIN}\n${lines.join('\n')}\n${END}\n`;
}

/**
 * What the SDK alone costs a sampled request, and the most traces on could keep of a
 * request's rate with every request sampled if the service added nothing around the span.
 */
function spanFloorLines(result: TracingRunResult, rows: TracingRow[]): string[] {
  const floor = result.spanFloorUs;
  if (floor === undefined) return [];
  const [hello] = rows;
  return [
    '',
    `**The SDK's own floor:** one server span made, ended and exported (OTLP/HTTP protobuf, to the same sink) by the kept SDK in a loop ` +
      `with nothing else, as the service makes it (\`bench/tracing/spanFloor.ts\`): ${fmt(floor, 1)} µs of CPU per request. ` +
      (hello
        ? `Beside ${hello.label}'s ${fmt(hello.off.serviceCpu, 1)} µs with traces off, that alone leaves at most ${pct(hello.off.serviceCpu / (hello.off.serviceCpu + floor))} of its rate with every request sampled, `
        : '') +
      'however little the service added around the span; a Get person makes two spans.',
  ];
}

const section: ResultsSection<TracingRunResult> = { begin: BEGIN, end: END, resultsFile: TRACING_RESULTS, render: renderTracingSection };

/** latest.md with the tracing section (from `outDir`'s tracing.json) in place of the one it holds, or at its end. */
export const withTracingSection = (markdown: string, outDir: string): string => withResultsSection(markdown, outDir, section);

/** Writes the tracing run's figures and its section of latest.md. */
export const writeTracingResults = (result: TracingRunResult, outDir: string): void => writeResultsSection(result, outDir, section);
