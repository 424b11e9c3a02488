// The full run's step after the measurements, every process under test stopped: hello's
// instructions counted under callgrind (on an idle host: a target under callgrind takes a
// core for minutes).
import { callgrindAvailable, countInstructions, type InstructionCount } from '../instructions.js';
import type { BenchOptions } from '../options.js';
import { BARE_HELLO } from '../targets.js';
import type { Plan } from './plan.js';

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
