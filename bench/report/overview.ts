// The report's opening and closing sections: how the run was made (machine, settings, code,
// pinning) and the targets, each goal with what was measured and whether it was met; then
// what crashed or was skipped.
import { nodeFlagsOf } from '../nodeFlags.js';
import { mark, table } from './format.js';
import type { Report } from './summary.js';

export function headerSection({ raw }: Report): string[] {
  const m = raw.machine;
  const o = raw.options;
  const postgres = raw.postgresVersion ? `, ${raw.postgresVersion.split(' on ')[0]}` : '';
  const prewarmed = raw.postgresPrewarmed ? 'tables and indexes prewarmed with pg_prewarm before measuring' : 'not prewarmed: pg_prewarm unavailable';
  const cache = raw.postgresSharedBuffers ? ` (shared_buffers ${raw.postgresSharedBuffers}; ${prewarmed})` : '';
  const budget = raw.budget.exhausted ? ` (**budget reached: ${raw.skipped.length} measurements skipped**)` : '';
  const uncommitted = raw.revision.uncommittedServerFiles.map((f) => `\`${f}\``).join(', ');
  const start = ['node', ...nodeFlagsOf('start:prod'), 'dist/server/main.js'].join(' ');
  return [
    `# Benchmark report, ${raw.startedAt.slice(0, 10)}`,
    '',
    `Machine: ${m.nproc} CPU (${m.cpuModel}), ${m.memoryGb} GB, ${m.os}, Node ${m.node}${postgres}${cache}.`,
    `Run: ${raw.startedAt} → ${raw.finishedAt}; ${o.durationS} s per measurement, ${o.connections} concurrent connections, ` +
      `${o.rounds} alternating rounds (figures are medians over the rounds), after ${o.warmupS} s of warm-up of every scenario on every target; ` +
      `${raw.budget.used} s of a ${raw.budget.seconds} s budget${budget}. ` +
      `Load average (1 min) ${raw.loadAverage.start} at the start, ${raw.loadAverage.end} at the end: the machine is shared, other work ran alongside.`,
    `Code: commit ${raw.revision.commit}${uncommitted ? ` plus uncommitted changes to ${uncommitted}` : ''}.`,
    m.pinning
      ? `Load generator (autocannon) pinned to CPU ${m.pinning.loadCpu}, each process under test to CPU ${m.pinning.targetCpu} (taskset); ` +
        'PostgreSQL unpinned, on the same machine; loopback.'
      : 'No CPU pinning (taskset or a second core missing): load generator and target share the cores.',
    `The service runs as production runs it (\`npm run build\`, then \`${start}\`), request logging at \`warn\`, the rate limit far above the load. ` +
      'How each table is measured and read: [docs/performance.md](../../docs/performance.md#reading-the-report).',
    '',
  ];
}

export function targetsSection({ targets }: Report): string[] {
  const rows = targets.map((t) => [t.goal, t.measured, mark(t.met)]);
  return ['## Targets', '', ...table(['Goal', 'Measured', ''], rows, 3), ''];
}

/** Processes under test that ended during the run, measurements skipped, and where the raw figures are. */
export function crashesSection({ raw }: Report): string[] {
  const crashes = (raw.crashes ?? []).flatMap((c) => [
    `- **${c.target} ${c.exit}** during ${c.during} (round ${c.round}); its measurements after that are skipped. Last stderr:`,
    '',
    '```',
    c.stderr,
    '```',
    '',
  ]);
  const skipped = raw.skipped.map((s) => `- round ${s.round}: ${s.scenario} · ${s.target}`);
  return [
    ...(crashes.length ? ['## Crashes', '', ...crashes] : []),
    ...(skipped.length ? ['## Skipped (budget or crash)', '', ...skipped, ''] : []),
    'Raw figures: [latest.json](latest.json). Reproduce: `npm run bench` (see docs/performance.md).',
    '',
  ];
}
