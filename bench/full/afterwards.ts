// The full run's steps after the measurements, every process under test stopped: the access
// audit's deferred index merge charged back to the audited measurements, hello's instructions
// counted under callgrind (on an idle host: a target under callgrind takes a core for
// minutes).
import { type AuditIndexMerge, auditIndexUpkeep } from '../auditIndex.js';
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
