// npm run bench [-- options]: the service side by side with its references, in one
// alternating run, within a time budget; writes bench/results/latest.{json,md}.
// Options (see options.ts): --duration 5 --rounds 2 --budget 1800 --connections 10
//   --people 1000000 --database-url postgres://… --no-postgres
//   --pglite-people 10000 --no-pglite --references bare (or '' for none)
//   --kinds getPerson,nameSubstring,… --credentials oneLarge,hundred --no-worst-case --out dir
//   --no-audit-comparison (skip measuring the service with its access audit off)
//   --no-instructions (skip counting hello's instructions under valgrind's callgrind)
//   --replica [--replica-people 200000] (instead: reads from a hot standby beside reads
//   from the primary, and the lag during a change file; bench/replicas/)
//   --imports (instead: every import measurement, each beside a raw COPY of the same rows;
//   bench/imports/)
//   --tracing (instead: hello and Get person with OpenTelemetry traces on beside off; bench/tracing/)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { IMPORT_RESULTS, importGoals, withImportSection, writeImportResults } from './imports/report.js';
import { parseBenchArgs } from './options.js';
import { replicaRows, withReplicaSection, writeReplicaResults } from './replicas/report.js';
import { buildReport, renderMarkdown } from './report.js';
import { runBench } from './run.js';
import { TRACING_RESULTS, tracingGoal, withTracingSection, writeTracingResults } from './tracing/report.js';

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  const log = (line: string) => process.stdout.write(`${line}\n`);
  mkdirSync(options.outDir, { recursive: true });
  if (options.replica) {
    // (Loaded only here: it brings the cluster helper, which looks up the postgres user.)
    const { runReplicaBench } = await import('./replicas/run.js');
    const result = await runReplicaBench({ ...options, replicaPeople: options.replica.people }, log);
    writeReplicaResults(result, options.outDir);
    for (const row of replicaRows(result))
      log(`${row.label}: replica / primary ${Math.round(row.ratio * 100)}% by req/s, ${Math.round(row.cpuRatio * 100)}% by CPU per request`);
    log(`\nreport: ${join(options.outDir, 'latest.md')} (its replicas section), ${join(options.outDir, 'replicas.json')}`);
    return;
  }
  if (options.imports) {
    const { runImportBench } = await import('./imports/run.js');
    const result = await runImportBench(options, log);
    writeImportResults(result, options.outDir);
    log('');
    for (const g of importGoals(result)) log(`${g.met ? 'MET    ' : 'NOT MET'}  ${g.goal}: ${g.measured}`);
    log(`\nreport: ${join(options.outDir, 'latest.md')} (its import section), ${join(options.outDir, IMPORT_RESULTS)}`);
    return;
  }
  if (options.tracing) {
    const { runTracingBench } = await import('./tracing/run.js');
    const result = await runTracingBench(options, log);
    writeTracingResults(result, options.outDir);
    const goal = tracingGoal(result);
    log(`\n${goal.met ? 'MET    ' : 'NOT MET'}  ${goal.goal}: ${goal.measured}`);
    log(`\nreport: ${join(options.outDir, 'latest.md')} (its tracing section), ${join(options.outDir, TRACING_RESULTS)}`);
    return;
  }
  const raw = await runBench(options, log);
  const report = buildReport(raw);
  writeFileSync(join(options.outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  // The replica and import figures come from their own runs (--replica, --imports): kept, saying which.
  writeFileSync(
    join(options.outDir, 'latest.md'),
    withTracingSection(withImportSection(withReplicaSection(renderMarkdown(report), options.outDir), options.outDir), options.outDir),
  );
  log('');
  for (const t of report.targets) log(`${t.met === undefined ? '-' : t.met ? 'MET    ' : 'NOT MET'}  ${t.goal}: ${t.measured}`);
  log(`\nreport: ${join(options.outDir, 'latest.md')}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
