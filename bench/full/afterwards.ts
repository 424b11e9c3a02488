// The full run's steps after the measurements, every process under test stopped: the access
// audit's deferred index merge charged back to the audited measurements, hello's instructions
// counted under callgrind (on an idle host: a target under callgrind takes a core for
// minutes), and EXPLAIN of the PostgreSQL kinds that missed their latency target.
import pg from 'pg';
import { employeesPlan } from '../../server/db/persons/employeesPlan.js';
import { findPersons } from '../../server/db/persons/persons.js';
import { statementOf as planStatement } from '../../server/db/persons/statements.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { type AuditIndexMerge, auditIndexUpkeep } from '../auditIndex.js';
import type { EmployeeAsk } from '../employeeScenarios.js';
import { callgrindAvailable, countInstructions, type InstructionCount } from '../instructions.js';
import type { BenchOptions } from '../options.js';
import type { Scenario } from '../plan.js';
import { AUDITED_KINDS, type PersonKind } from '../scenarios.js';
import { BARE_HELLO } from '../targets.js';
import type { Measurements } from './measure.js';
import { type Plan, serviceName } from './plan.js';

/**
 * Every service has stopped, so every entry is shipped: the merge of the audit's person index
 * is timed, and each audited measurement gets its ids per response (so its share of the merge).
 */
export async function chargeAuditIndex(
  databaseUrl: string,
  since: Date,
  scenarios: Scenario[],
  measurements: Measurements['measurements'],
  log: (line: string) => void,
): Promise<AuditIndexMerge> {
  const audited = measurements.filter((m) => {
    const scenario = scenarios.find((s) => s.id === m.scenario);
    const kind = scenario?.kind as PersonKind;
    return scenario?.group === 'postgres' && AUDITED_KINDS.includes(kind) && m.target === serviceName('postgres') && m.measured.window;
  });
  const upkeep = await auditIndexUpkeep(
    databaseUrl,
    since,
    audited.map((m) => m.measured.window!),
  );
  audited.forEach((m, i) => {
    m.measured.auditIdsPerResponse = upkeep.idsPerResponse[i];
  });
  const { ids, cpuMs } = upkeep.merge;
  log(`access audit's person index: ${ids.toLocaleString('en-US')} ids merged after the measurements in ${Math.round(cpuMs)} ms of CPU`);
  return upkeep.merge;
}

/** Hello's instructions per request of the service and the bare reference, where both ran and valgrind is installed. */
export async function countHelloInstructions(
  options: BenchOptions,
  plan: Plan,
  log: (line: string) => void,
): Promise<Record<string, InstructionCount> | undefined> {
  const counted = [plan.hello.service, BARE_HELLO].filter((name) => plan.specs[name]);
  if (!options.instructions || counted.length !== 2 || !callgrindAvailable()) return undefined;
  const { credential } = plan.hello;
  const hello = { path: `/v1/companies/${credential.companies[0]!}/hello`, token: credential.token };
  const counts: Record<string, InstructionCount> = {};
  for (const name of counted) {
    counts[name] = await countInstructions(plan.specs[name]!, hello, options.connections);
    log(`${name}: ${counts[name].perRequest.map((n) => Math.round(n)).join(', ')} instructions per hello (callgrind)`);
  }
  return counts;
}

export interface Explain {
  scenario: string;
  label: string;
  credential?: string;
  filter: Record<string, unknown>;
  plan: string;
}

/** p99 targets: Get person under 10 ms, every other person operation under 50 ms. */
export const p99TargetMs = (kind: Scenario['kind']) => (kind === 'getPerson' ? 10 : 50);

/** EXPLAIN (ANALYZE, BUFFERS) of the first filter of every PostgreSQL scenario whose service p99 missed its target, and of the worst case. */
export async function explainSlow(databaseUrl: string, scenarios: Scenario[], measurements: Measurements['measurements']): Promise<Explain[]> {
  const slow = scenarios.filter((s) => {
    if (s.group !== 'postgres' || !s.direct) return false;
    const p99s = measurements.filter((m) => m.scenario === s.id && m.target !== 'direct SQL').map((m) => m.measured.p99);
    return s.kind === 'worstCase' || p99s.some((p) => !(p < p99TargetMs(s.kind)));
  });
  if (!slow.length) return [];
  const client = new pg.Client({ connectionString: databaseUrl, statement_timeout: 120_000 });
  await client.connect();
  const explains: Explain[] = [];
  try {
    for (const s of slow) {
      const filter = s.direct![0]!;
      const { sql, params } = await statementOf(filter);
      // Twice, keeping the second: the first pays this fresh connection's catalog cache
      // misses in planning, which the service's long-lived pooled connections do not.
      await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      explains.push({ scenario: s.id, label: s.label, credential: s.credential, filter: shortened(filter), plan });
    }
  } finally {
    await client.end();
  }
  return explains;
}

/** The statement the service runs for `filter`: findPersons builds it, captured instead of run. */
async function statementOf(filter: PersonFilter | EmployeeAsk): Promise<{ sql: string; params: unknown[] }> {
  if ('employees' in filter) return planStatement(employeesPlan(filter));
  let statement: { sql: string; params: unknown[] } | undefined;
  await findPersons({ query: async (sql, params) => ((statement = { sql, params: params ?? [] }), []) }, filter);
  return statement!;
}

/** The filter for the report, with long arrays (a credential's 2,000 companies) cut short. */
function shortened(filter: PersonFilter | EmployeeAsk): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) && v.length > 5 ? [...v.slice(0, 3), `… ${v.length} in all`] : v]),
  );
}
