// npm run bench:data -- --people 1000000 [--database-url postgres://...] [--pglite-dir dir]
//                       [--companies n] [--seed n] [--rebuild]
// Builds (or finds already built) the benchmark dataset of that scale. Without --pglite-dir
// the target is PostgreSQL: --database-url, else BENCH_DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/lookup_bench.
import { parseArgs } from 'node:util';
import { DEFAULT_BENCH_DATABASE_URL } from '../options.js';
import { type DatasetLocation, describe, ensureDataset } from './build.js';
import { scaleFor } from './generate.js';

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
const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
const location: DatasetLocation = values['pglite-dir']
  ? { engine: 'pglite', dataDir: values['pglite-dir'] }
  : { engine: 'postgres', databaseUrl: values['database-url'] ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL };
const scale = scaleFor(Number(values.people), { companies: number(values.companies), seed: number(values.seed) });
const log = (line: string) => process.stdout.write(`${line}\n`);
try {
  const info = await ensureDataset(location, { scale, rebuild: values.rebuild, log });
  log(`${describe(location)}: ${info.built ? 'built' : 'already built'} (${info.marker.builtAt}, ${Math.round(info.marker.load.seconds.total)} s)`);
  log(`credentials: ${info.credentials.map((c) => `${c.token} (${c.companies.length} ${c.companies.length === 1 ? 'company' : 'companies'})`).join(', ')}`);
} catch (error) {
  process.stderr.write(`bench:data failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
}
