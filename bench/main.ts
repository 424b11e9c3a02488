// npm run bench [-- options]: the service side by side with its references, in one
// alternating run, within a time budget; writes bench/results/latest.{json,md}. With
// --replica, --imports or --tracing, one focused run instead, which writes its own section
// of latest.md (and its JSON), a section a full run keeps. Options: options.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importGoals, importSection } from './imports/report.js';
import { type BenchOptions, type Focus, parseBenchArgs } from './options.js';
import { replicaSection, replicaSummary } from './replicas/report.js';
import { buildReport, renderMarkdown } from './report.js';
import { runBench } from './run.js';
import { type ResultsSection, withResultsSection, writeResultsSection } from './sections.js';
import { tracingGoal, tracingSection } from './tracing/report.js';

type Log = (line: string) => void;
const goalLine = (g: { goal: string; measured: string; met?: boolean }) =>
  `${g.met === undefined ? '-      ' : g.met ? 'MET    ' : 'NOT MET'}  ${g.goal}: ${g.measured}`;

/**
 * Each focused run: what it measures (loaded only when asked: the replicas' brings the
 * cluster helper, which looks up the postgres user), its section, and its summary lines.
 */
const FOCUSED: Record<Focus, { run(options: BenchOptions, log: Log): Promise<any>; section: ResultsSection<any>; summary(result: any): string[] }> = {
  replica: { run: async (o, log) => (await import('./replicas/run.js')).runReplicaBench(o, log), section: replicaSection, summary: replicaSummary },
  imports: {
    run: async (o, log) => (await import('./imports/run.js')).runImportBench(o, log),
    section: importSection,
    summary: (r) => importGoals(r).map(goalLine),
  },
  tracing: {
    run: async (o, log) => (await import('./tracing/run.js')).runTracingBench(o, log),
    section: tracingSection,
    summary: (r) => [goalLine(tracingGoal(r))],
  },
};

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  const log: Log = (line) => process.stdout.write(`${line}\n`);
  mkdirSync(options.outDir, { recursive: true });
  const latest = join(options.outDir, 'latest.md');
  if (options.focus) {
    const { run, section, summary } = FOCUSED[options.focus];
    const result = await run(options, log);
    writeResultsSection(result, options.outDir, section);
    log(['', ...summary(result), '', `report: ${latest} (its section), ${join(options.outDir, section.resultsFile)}`].join('\n'));
    return;
  }
  const report = buildReport(await runBench(options, log));
  writeFileSync(join(options.outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  // The focused runs' figures come from their own runs: kept, saying which.
  const markdown = Object.values(FOCUSED).reduce((md, { section }) => withResultsSection(md, options.outDir, section), renderMarkdown(report));
  writeFileSync(latest, markdown);
  log(['', ...report.targets.map(goalLine), '', `report: ${latest}`].join('\n'));
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
