// npm run bench:data -- --people 1000000 [--database-url postgres://...] [--pglite-dir dir]
//                       [--companies n] [--seed n] [--rebuild]
// Builds (or finds already built) the benchmark dataset of that scale and prints its
// import rate. Without --pglite-dir the target is PostgreSQL: --database-url, else
// BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/lookup_bench.
import { parseArgs } from 'node:util';
import { DEFAULT_BENCH_DATABASE_URL } from '../options.js';
import { type DatasetLocation, describe, ensureDataset } from './build.js';
import { scaleFor } from './generate.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      people: { type: 'string', default: '1000000' },
      companies: { type: 'string' },
      seed: { type: 'string' },
      'database-url': { type: 'string' },
      'pglite-dir': { type: 'string' },
      rebuild: { type: 'boolean', default: false },
    },
  });
  const scale = scaleFor(Number(values.people), {
    companies: values.companies === undefined ? undefined : Number(values.companies),
    seed: values.seed === undefined ? undefined : Number(values.seed),
  });
  const location: DatasetLocation = values['pglite-dir']
    ? { engine: 'pglite', dataDir: values['pglite-dir'] }
    : { engine: 'postgres', databaseUrl: values['database-url'] ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL };

  const info = await ensureDataset(location, { scale, rebuild: values.rebuild, log: (line) => process.stdout.write(`${line}\n`) });
  const { load } = info.marker;
  const rows = Object.entries(load.rows)
    .map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`)
    .join(', ');
  process.stdout.write(
    [
      `${describe(location)}: ${info.built ? 'built' : 'already built'} (${info.marker.builtAt})`,
      `  ${rows}`,
      `  ${load.totalRows.toLocaleString('en-US')} rows in ${load.seconds.total.toFixed(1)} s = ${load.rowsPerSecond.toLocaleString('en-US')} rows/s` +
        ` (the import ${load.seconds.import.toFixed(1)} s, VACUUM ANALYZE ${load.seconds.analyze.toFixed(1)} s)`,
      `  credentials: ${info.credentials.map((c) => `${c.token} (${c.companies.length} ${c.companies.length === 1 ? 'company' : 'companies'})`).join(', ')}`,
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  process.stderr.write(`bench:data failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
