// The report's closing sections: the datasets, and what crashed or was skipped.
import { engineName } from './format.js';
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
