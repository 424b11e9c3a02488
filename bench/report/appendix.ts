// The report's closing sections: the datasets, the query plans
// of the kinds that missed their latency target, and what crashed or was skipped.
import { credentialNames, engineName, int, ms, orDash, pct, table } from './format.js';
import type { Report } from './summary.js';

/** The datasets measured and how each was built. */
export function datasetsSection({ raw }: Report): string[] {
  const lines = raw.datasets.map((d) => {
    const rows = Object.entries(d.load.rows).map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`);
    const { load } = d;
    return (
      `- ${engineName[d.engine]} \`${d.location}\`: ${d.people.toLocaleString('en-US')} people, ` +
      `${d.companies.toLocaleString('en-US')} companies (Zipf-sized), seed ${d.seed}; ${rows.join(', ')}. ` +
      `Built ${d.builtAt}${d.builtNow ? ' (by this run)' : ''} at ${load.rowsPerSecond.toLocaleString('en-US')} rows/s ` +
      `(${load.totalRows.toLocaleString('en-US')} rows in ${load.seconds.total.toFixed(0)} s: ${loadSteps(load.seconds)}, ` +
      `VACUUM ANALYZE ${load.seconds.analyze.toFixed(0)} s).`
    );
  });
  return ['## Datasets', '', ...lines, ''];
}

/** How a dataset was loaded: through the import, or (a dataset built before the bench loaded by the import) COPY, then keys and indexes. */
function loadSteps(seconds: { import: number } | { copy: number; indexes: number }): string {
  if ('import' in seconds) return `the import ${seconds.import.toFixed(0)} s`;
  return `COPY ${seconds.copy.toFixed(0)} s, keys and indexes ${seconds.indexes.toFixed(0)} s`;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the first drawn filter of every kind that missed its target, and of the worst case. */
export function explainsSection({ raw }: Report): string[] {
  if (!raw.explains.length) return [];
  const credentialName = credentialNames(raw);
  const time = (plan: string, what: string) => new RegExp(`^\\s*${what}: ([\\d.]+) ms`, 'm').exec(plan)?.[1] ?? '–';
  const rows = raw.explains.map((e) => [e.label, credentialName('postgres', e.credential), time(e.plan, 'Planning Time'), time(e.plan, 'Execution Time')]);
  const plans = raw.explains.flatMap((e) => [
    `<details><summary>${e.label} (${credentialName('postgres', e.credential)})</summary>`,
    '',
    '```json',
    JSON.stringify(e.filter),
    '```',
    '',
    '```',
    e.plan,
    '```',
    '',
    '</details>',
    '',
  ]);
  return ['## Query plans of the slow filter kinds (PostgreSQL)', '', ...table(['Filter', 'Credential', 'planning ms', 'execution ms'], rows, 2), '', ...plans];
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
