// `npm run bench` options. Defaults are the full run: 1,000,000 people on PostgreSQL,
// 10,000 on PGlite, every reference, 5 s per measurement, 2 alternating rounds, all
// inside a 30-minute budget (dataset builds, when needed, come before the budget).
// docs/performance.md lists them with what each is for.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type CredentialKey, DEFAULT_SEED } from './dataset/generate.js';
import { type EmployeeKind, employeeKinds, type PersonKind, personKinds } from './scenarios.js';

export const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/lookup_bench';
const benchDir = fileURLToPath(new URL('.//', import.meta.url));

/** A run instead of the full one, its figures kept in its own section of latest.md. */
export type Focus = 'replica' | 'imports' | 'tracing';

export type BenchOptions = ReturnType<typeof parseBenchArgs>;

const ALL_KINDS = [...Object.keys(personKinds), ...Object.keys(employeeKinds)];

const ARGUMENTS = {
  duration: { type: 'string', default: '5' },
  rounds: { type: 'string', default: '2' },
  budget: { type: 'string', default: '1800' },
  connections: { type: 'string', default: '10' },
  warmup: { type: 'string', default: '2' },
  'cold-starts': { type: 'string', default: '3' },
  people: { type: 'string', default: '1000000' },
  companies: { type: 'string' },
  seed: { type: 'string', default: String(DEFAULT_SEED) },
  'database-url': { type: 'string' },
  'no-postgres': { type: 'boolean', default: false },
  'pglite-people': { type: 'string', default: '10000' },
  'pglite-dir': { type: 'string' },
  'no-pglite': { type: 'boolean', default: false },
  references: { type: 'string', default: 'bare' },
  kinds: { type: 'string', default: ALL_KINDS.join(',') },
  credentials: { type: 'string', default: 'oneLarge,hundred' },
  'no-worst-case': { type: 'boolean', default: false },
  'no-audit-comparison': { type: 'boolean', default: false },
  samples: { type: 'string', default: '1000' },
  'no-instructions': { type: 'boolean', default: false },
  out: { type: 'string', default: `${benchDir}results` },
  rebuild: { type: 'boolean', default: false },
  'work-dir': { type: 'string', default: `${benchDir}.data/changes` },
  replica: { type: 'boolean', default: false },
  'replica-people': { type: 'string', default: '200000' },
  imports: { type: 'boolean', default: false },
  tracing: { type: 'boolean', default: false },
} as const;

const num = (name: string, value: string | undefined, min: number) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number >= ${min}; got "${value}"`);
  return n;
};
const list = <T extends string>(name: string, value: string, allowed: readonly string[]) => {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = items.filter((i) => !allowed.includes(i));
  if (unknown.length) throw new Error(`--${name}: unknown ${unknown.join(', ')} (known: ${allowed.join(', ')})`);
  return items as T[];
};

export function parseBenchArgs(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const { values } = parseArgs({ args: argv, options: ARGUMENTS });
  const focuses = (['replica', 'imports', 'tracing'] as const).filter((focus) => values[focus]);
  if (focuses.length > 1) throw new Error('--imports, --replica and --tracing are separate runs: give one of them');
  const focus: Focus | undefined = focuses[0];
  // (--replica makes its own primary and standby.)
  if (focus && focus !== 'replica' && values['no-postgres']) throw new Error(`--${focus} measures on PostgreSQL: it cannot run with --no-postgres`);
  const seed = num('seed', values.seed, 0);
  const kinds = list<PersonKind | EmployeeKind>('kinds', values.kinds, ALL_KINDS);
  const pglitePeople = num('pglite-people', values['pglite-people'], 1);
  return {
    /** Seconds per measurement; every measurement is taken `rounds` times, interleaved. */
    durationS: num('duration', values.duration, 0.5),
    rounds: num('rounds', values.rounds, 1),
    /** Seconds for the whole measured run (cold starts, warm-up, rounds); the rest is skipped. */
    budgetS: num('budget', values.budget, 10),
    /** Concurrent clients (connections) of every load. */
    connections: num('connections', values.connections, 1),
    warmupS: num('warmup', values.warmup, 0),
    /** Cold-start samples per target. */
    coldStarts: num('cold-starts', values['cold-starts'], 1),
    postgres: values['no-postgres']
      ? undefined
      : {
          databaseUrl: values['database-url'] ?? env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL,
          people: num('people', values.people, 1),
          companies: values.companies === undefined ? undefined : num('companies', values.companies, 2),
          seed,
        },
    pglite: values['no-pglite']
      ? undefined
      : { dataDir: values['pglite-dir'] ?? `${benchDir}.data/pglite-${pglitePeople}-${seed}`, people: pglitePeople, companies: undefined, seed },
    /** Hello beside the bare node:http handler (`--references bare`, the default; `''`: alone). */
    bareHello: list('references', values.references, ['bare']).includes('bare'),
    kinds: kinds.filter((k): k is PersonKind => k in personKinds),
    employeeKinds: kinds.filter((k): k is EmployeeKind => k in employeeKinds),
    credentials: list<Exclude<CredentialKey, 'every'>>('credentials', values.credentials, ['oneLarge', 'hundred']),
    worstCase: !values['no-worst-case'],
    /** Also run the service with the access audit off (PostgreSQL), side by side with it as shipped for AUDITED_KINDS: the audit's cost. */
    auditComparison: !values['no-audit-comparison'],
    /** Filter values drawn per scenario. */
    samples: num('samples', values.samples, 1),
    /** Count hello's instructions per request under callgrind (service and bare reference), where valgrind is installed. */
    instructions: !values['no-instructions'],
    outDir: values.out,
    rebuild: values.rebuild,
    /** Where `--imports` and `--replica` write their import files. */
    workDir: values['work-dir'],
    focus,
    /** People in the primary and standby of the bench's own that `--replica` makes. */
    replicaPeople: num('replica-people', values['replica-people'], 1),
  };
}
