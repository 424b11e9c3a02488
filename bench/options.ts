// `npm run bench` options, `npm run bench:data`'s too (--datasets-only); docs/performance.md
// says what each is for. The defaults are the full run.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type CredentialKey, DEFAULT_SEED } from './dataset/generate.js';
import { type EmployeeKind, employeeKinds, type PersonKind, personKinds } from './scenarios.js';

const benchDir = fileURLToPath(new URL('./', import.meta.url));

/** A run instead of the full one, its figures kept in its own section of latest.md. */
export type Focus = 'replica' | 'imports' | 'tracing';

export type BenchOptions = ReturnType<typeof parseBenchArgs>;

/** A mistake in the command line: said in one line, without a stack. */
export class UsageError extends Error {}

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
  credentials: { type: 'string', default: 'oneLarge,hundred,nameEmail' },
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
  'datasets-only': { type: 'boolean', default: false },
} as const;

const number = (name: string, text: string | undefined, min: number, whole: boolean) => {
  const n = Number(text);
  if (text?.trim() && (whole ? Number.isInteger(n) : Number.isFinite(n)) && n >= min) return n;
  throw new UsageError(`--${name} must be a ${whole ? 'whole number' : 'number'} >= ${min}; got "${text}"`);
};
const count = (name: string, text: string | undefined, min = 1) => number(name, text, min, true);
const seconds = (name: string, text: string, min: number) => number(name, text, min, false);
const list = <T extends string>(name: string, text: string, allowed: readonly string[]) => {
  const items = text.split(',').flatMap((item) => item.trim() || []);
  const unknown = items.filter((item) => !allowed.includes(item));
  if (unknown.length) throw new UsageError(`--${name}: unknown ${unknown.join(', ')} (known: ${allowed.join(', ')})`);
  return items as T[];
};

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: ARGUMENTS }).values;
  } catch (error) {
    // (Without parseArgs's advice about `--`, which a mistyped option does not need.)
    throw new UsageError((error as Error).message.split(/\.\s/)[0]!);
  }
}

export function parseBenchArgs(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const values = parse(argv);
  const focuses = (['replica', 'imports', 'tracing', 'datasets-only'] as const).filter((flag) => values[flag]);
  if (focuses.length > 1) throw new UsageError(`${focuses.map((flag) => `--${flag}`).join(' and ')} are separate runs: give one of them`);
  const focus = focuses.find((flag): flag is Focus => flag !== 'datasets-only');
  // (--replica makes its own primary and standby.)
  if (focus && focus !== 'replica' && values['no-postgres']) throw new UsageError(`--${focus} measures on PostgreSQL: it cannot run with --no-postgres`);
  if (!focus && values['no-postgres'] && values['no-pglite']) throw new UsageError('--no-postgres and --no-pglite leave nothing to measure');
  const seed = count('seed', values.seed, 0);
  const kinds = list<PersonKind | EmployeeKind>('kinds', values.kinds, ALL_KINDS);
  const pglitePeople = count('pglite-people', values['pglite-people']);
  return {
    durationS: seconds('duration', values.duration, 0.5),
    rounds: count('rounds', values.rounds),
    budgetS: seconds('budget', values.budget, 10),
    connections: count('connections', values.connections),
    warmupS: seconds('warmup', values.warmup, 0),
    coldStarts: count('cold-starts', values['cold-starts']),
    postgres: values['no-postgres']
      ? undefined
      : {
          engine: 'postgres' as const,
          databaseUrl: values['database-url'] ?? env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lookup_bench',
          /** Named by --database-url or BENCH_DATABASE_URL: --imports then measures there rather than on a server of its own. */
          given: (values['database-url'] ?? env.BENCH_DATABASE_URL) !== undefined,
          people: count('people', values.people),
          companies: values.companies === undefined ? undefined : count('companies', values.companies, 2),
          seed,
        },
    pglite: values['no-pglite']
      ? undefined
      : { engine: 'pglite' as const, dataDir: values['pglite-dir'] ?? `${benchDir}.data/pglite-${pglitePeople}-${seed}`, people: pglitePeople, seed },
    bareHello: list('references', values.references, ['bare']).includes('bare'),
    kinds: kinds.filter((k): k is PersonKind => k in personKinds),
    employeeKinds: kinds.filter((k): k is EmployeeKind => k in employeeKinds),
    credentials: list<Exclude<CredentialKey, 'every'>>('credentials', values.credentials, ['oneLarge', 'hundred', 'nameEmail']),
    worstCase: !values['no-worst-case'],
    auditComparison: !values['no-audit-comparison'],
    samples: count('samples', values.samples),
    instructions: !values['no-instructions'],
    outDir: values.out,
    rebuild: values.rebuild,
    workDir: values['work-dir'],
    focus,
    datasetsOnly: values['datasets-only'],
    replicaPeople: count('replica-people', values['replica-people']),
  };
}
