// The report's closing sections: the datasets, and what crashed or was skipped.
import { engineName } from './format.js';
import type { Report } from './summary.js';

/** The datasets measured and how each was built. */
export function datasetsSection({ raw }: Report): string[] {
  const lines = raw.datasets.map((d) => {
    const rows = Object.entries(d.load.rows).map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`);
    return (
      `- ${engineName[d.engine]} \`${d.location}\`: ${d.people.toLocaleString('en-US')} people, ` +
      `${d.companies.toLocaleString('en-US')} companies (Zipf-sized), seed ${d.seed}; ${rows.join(', ')}. ` +
      `Built ${d.builtAt}${d.builtNow ? ' (by this run)' : ''} in ${d.load.seconds.total.toFixed(0)} s.`
    );
  });
  return ['## Datasets', '', ...lines, ''];
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
