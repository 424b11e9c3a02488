// npm run bench [-- options]: the service side by side with its references, writing
// bench/results/latest.{json,md}; or one focused run (--replica, --imports, --tracing) that
// rewrites only its own section of latest.md; or (--datasets-only, npm run bench:data) the
// datasets alone. Options: options.ts, docs/performance.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, ensureDataset } from './dataset/build.js';
import { importGoals, importSection } from './imports/report.js';
import { type BenchOptions, type Focus, parseBenchArgs, UsageError } from './options.js';
import { replicaSection, replicaSummary } from './replicas/report.js';
import { buildReport, renderMarkdown } from './report.js';
import { runBench } from './run.js';
import { type ResultsSection, withResultsSection, writeResultsSection } from './sections.js';
import { tracingGoal, tracingSection } from './tracing/report.js';

type Log = (line: string) => void;
type Goal = { goal: string; measured: string; met?: boolean };
const goalLine = (g: Goal) => `${g.met === undefined ? '-      ' : g.met ? 'MET    ' : 'NOT MET'}  ${g.goal}: ${g.measured}`;

/** Each focused run, loaded only when asked (the replicas' brings the cluster helper, which looks up the postgres user). */
const FOCUSED: Record<Focus, { run(options: BenchOptions, log: Log): Promise<any>; section: ResultsSection<any>; summary(result: any): Goal[] }> = {
  replica: { run: async (o, log) => (await import('./replicas/run.js')).runReplicaBench(o, log), section: replicaSection, summary: replicaSummary },
  imports: { run: async (o, log) => (await import('./imports/run.js')).runImportBench(o, log), section: importSection, summary: importGoals },
  tracing: { run: async (o, log) => (await import('./tracing/run.js')).runTracingBench(o, log), section: tracingSection, summary: (r) => [tracingGoal(r)] },
};

/** Each engine's dataset the options name, built or found, and the tokens to ask it with. */
async function buildDatasets(options: BenchOptions, log: Log): Promise<void> {
  const companies = (n: number) => `${n} ${n === 1 ? 'company' : 'companies'}`;
  for (const dataset of [options.postgres, options.pglite]) {
    if (!dataset) continue;
    const { built, marker, credentials } = await ensureDataset(dataset, { rebuild: options.rebuild, log });
    log(`${describe(dataset)}: ${built ? 'built' : 'already built'} (${marker.builtAt}, ${Math.round(marker.load.seconds.total)} s)`);
    log(`credentials: ${credentials.map((c) => `${c.token} (${companies(c.companies.length)})`).join(', ')}`);
  }
}

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  const log: Log = (line) => process.stdout.write(`${line}\n`);
  if (options.datasetsOnly) return buildDatasets(options, log);
  mkdirSync(options.outDir, { recursive: true });
  const latest = join(options.outDir, 'latest.md');
  if (options.focus) {
    const { run, section, summary } = FOCUSED[options.focus];
    const result = await run(options, log);
    writeResultsSection(result, options.outDir, section);
    log(['', ...summary(result).map(goalLine), '', `report: ${latest} (its section), ${join(options.outDir, section.resultsFile)}`].join('\n'));
    return;
  }
  const report = buildReport(await runBench(options, log));
  writeFileSync(join(options.outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  // The focused runs' sections come from their own runs' results files: kept.
  const markdown = Object.values(FOCUSED).reduce((md, { section }) => withResultsSection(md, options.outDir, section), renderMarkdown(report));
  writeFileSync(latest, markdown);
  log(['', ...report.targets.map(goalLine), '', `report: ${latest}`].join('\n'));
}

main().then(
  () => process.exit(0),
  (error) => {
    if (error instanceof UsageError) process.stderr.write(`bench: ${error.message} (the options: docs/performance.md)\n`);
    else process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
