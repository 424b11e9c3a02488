// `npm run bench` options. Defaults are the full run: 1,000,000 people on PostgreSQL,
// 10,000 on PGlite, every reference, 5 s per measurement, 2 alternating rounds, all
// inside a 30-minute budget (dataset builds, when needed, come before the budget).

import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type CredentialKey, DEFAULT_SEED } from './dataset/generate.js';
import { type EmployeeKind, employeeKinds } from './employeeScenarios.js';
import { type PersonKind, personKinds } from './scenarios.js';
import type { HelloReference } from './targets.js';

export const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/lookup_bench';
const benchDir = fileURLToPath(new URL('.//', import.meta.url));

export interface EngineScale {
  people: number;
  companies?: number;
  seed: number;
}

export interface BenchOptions {
  /** Seconds per measurement. */
  durationS: number;
  /** Alternating rounds: every measurement is taken this many times, interleaved. */
  rounds: number;
  /** Seconds for the whole measured run (cold starts, warm-up, rounds); the rest is skipped. */
  budgetS: number;
  /** Concurrent clients (connections) of every load. */
  connections: number;
  warmupS: number;
  /** Cold-start samples per target. */
  coldStarts: number;
  postgres?: EngineScale & { databaseUrl: string };
  pglite?: EngineScale & { dataDir: string };
  references: HelloReference[];
  kinds: PersonKind[];
  /** The Search employees kinds of `--kinds` (employeeScenarios.ts). */
  employeeKinds: EmployeeKind[];
  credentials: Exclude<CredentialKey, 'every'>[];
  worstCase: boolean;
  /**
   * Also run the service with the access audit off (PostgreSQL), measured side by side with
   * it as shipped for Get person and the searches in AUDITED_KINDS: the audit's cost.
   */
  auditComparison: boolean;
  /** Filter values drawn per scenario. */
  samples: number;
  /** Count hello's instructions per request under callgrind (service and bare reference), where valgrind is installed. */
  instructions: boolean;
  outDir: string;
  rebuild: boolean;
  /** Where `--imports` and `--replica` write their import files. */
  workDir: string;
  /**
   * `--replica`: instead of the usual run, the service reading from a hot standby beside
   * the same service reading from the primary, and the lag while a change file is applied
   * (bench/replicas/), on a primary and standby of the bench's own with this many people.
   */
  replica?: { people: number };
  /**
   * `--imports`: instead of the usual run, every import measurement (bench/imports/): the
   * initial load and its unchanged re-apply, a change file touching 1% of the people, the
   * churn file, and the searches while a change file is applied; each beside a raw COPY.
   */
  imports: boolean;
  /** `--tracing`: instead of the usual run, hello and Get person with OpenTelemetry traces on beside off (bench/tracing/). */
  tracing: boolean;
}

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

export function parseBenchArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: ARGUMENTS,
  });
  if ([values.imports, values.replica, values.tracing].filter(Boolean).length > 1)
    throw new Error('--imports, --replica and --tracing are separate runs: give one of them');
  if (values.tracing && values['no-postgres']) throw new Error('--tracing measures the service on PostgreSQL: it cannot run with --no-postgres');
  if (values.imports && values['no-postgres']) throw new Error('--imports measures the import on PostgreSQL: it cannot run with --no-postgres');
  const seed = num('seed', values.seed, 0);
  const kinds = list<PersonKind | EmployeeKind>('kinds', values.kinds, ALL_KINDS);
  const pglitePeople = num('pglite-people', values['pglite-people'], 1);
  return {
    durationS: num('duration', values.duration, 0.5),
    rounds: num('rounds', values.rounds, 1),
    budgetS: num('budget', values.budget, 10),
    connections: num('connections', values.connections, 1),
    warmupS: num('warmup', values.warmup, 0),
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
      : { dataDir: values['pglite-dir'] ?? `${benchDir}.data/pglite-${pglitePeople}-${seed}`, people: pglitePeople, seed },
    references: list('references', values.references, ['bare']),
    kinds: kinds.filter((k): k is PersonKind => k in personKinds),
    employeeKinds: kinds.filter((k): k is EmployeeKind => k in employeeKinds),
    credentials: list('credentials', values.credentials, ['oneLarge', 'hundred']),
    worstCase: !values['no-worst-case'],
    auditComparison: !values['no-audit-comparison'],
    samples: num('samples', values.samples, 1),
    instructions: !values['no-instructions'],
    outDir: values.out,
    rebuild: values.rebuild,
    workDir: values['work-dir'],
    replica: values.replica ? { people: num('replica-people', values['replica-people'], 1) } : undefined,
    tracing: values.tracing,
    imports: values.imports,
  };
}
