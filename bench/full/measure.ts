// The full run's processes, inside the time budget: cold starts (spawn → first successful
// hello, alternating over the targets), then every process started for good and measured
// (rounds.ts), the CPU of the bench database's backends read around each PostgreSQL step.
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { databaseBackendsCpu } from '../cpu.js';
import type { BenchOptions } from '../options.js';
import type { Engine } from '../plan.js';
import { type Running, startTarget } from '../processes.js';
import { type Measurements, measureRounds, type startBudget } from '../rounds.js';
import type { Plan } from './plan.js';

export type FullMeasurements = Measurements & { coldStarts: Record<string, number[]> };

export async function measureAll(
  options: BenchOptions,
  plan: Plan,
  budget: ReturnType<typeof startBudget>,
  cpu: number | undefined,
  log: (line: string) => void,
): Promise<FullMeasurements> {
  const coldStarts: Record<string, number[]> = Object.fromEntries(Object.keys(plan.specs).map((name) => [name, []]));
  const running: Record<string, Running> = {};
  const direct: Partial<Record<Engine, Running>> = {};
  const backends = options.postgres ? await openDatabase({ databaseUrl: options.postgres.databaseUrl, poolMax: 1 }) : undefined;
  try {
    for (let i = 1; i < options.coldStarts && budget.fits(60); i++) {
      for (const [name, spec] of Object.entries(plan.specs)) {
        const started = await startTarget(spec, cpu);
        coldStarts[name]!.push(started.coldStartMs);
        await started.stop();
      }
    }
    for (const [name, spec] of Object.entries(plan.specs)) {
      running[name] = await startTarget(spec, cpu);
      coldStarts[name]!.push(running[name].coldStartMs);
      log(`${name}: up, cold start ${Math.round(running[name].coldStartMs)} ms`);
    }
    for (const engine of ['postgres', 'pglite'] as const) {
      const spec = plan.references[engine];
      if (spec) direct[engine] = plan.specs[spec.name] === spec ? running[spec.name] : await startTarget(spec, cpu);
    }
    const databaseCpu =
      backends && ((scenario: Plan['scenarios'][number]) => (scenario.group === 'postgres' ? () => databaseBackendsCpu(backends) : undefined));
    return { coldStarts, ...(await measureRounds({ scenarios: plan.scenarios, running, direct, settings: options, budget, databaseCpu, log })) };
  } finally {
    await Promise.all([...[...new Set([...Object.values(running), ...Object.values(direct)])].map((p) => p.stop()), backends?.close()]);
  }
}
