// A run's measurements summarized: one row per scenario and target, medians over the rounds.
import type { Engine } from '../plan.js';
import type { RunResult } from '../run.js';
import { median } from '../stats.js';

export interface Row {
  scenario: string;
  group: 'hello' | Engine;
  label: string;
  credential?: string;
  target: string;
  rounds: number;
  rps: number;
  p50: number;
  p99: number;
  rssPeakMb?: number;
  /** Median bytes per 2xx response, headers included (HTTP targets). */
  bytesPerResponse?: number;
  /** Median CPU time of the process under test per request (HTTP targets on Linux). */
  cpuUsPerRequest?: number;
  /** Median CPU time of its PostgreSQL backends per request (PostgreSQL person scenarios). */
  dbCpuUsPerRequest?: number;
  non2xx: number;
  errors: number;
}

export interface TargetCheck {
  goal: string;
  measured: string;
  met: boolean | undefined;
}

export interface Report {
  summary: Row[];
  coldStartMs: Record<string, number>;
  targets: TargetCheck[];
  raw: RunResult;
}

type Measured = RunResult['measurements'][number]['measured'];

export function summarize(raw: RunResult): Row[] {
  return raw.scenarios.flatMap((scenario) =>
    scenario.targets.flatMap((target) => {
      const runs = raw.measurements.filter((m) => m.scenario === scenario.id && m.target === target).map((m) => m.measured);
      if (!runs.length) return [];
      const { id, group, label, credential } = scenario;
      return [{ scenario: id, group, label, credential, target, rounds: runs.length, ...medians(runs) }];
    }),
  );
}

function medians(runs: Measured[]): Omit<Row, 'scenario' | 'group' | 'label' | 'credential' | 'target' | 'rounds'> {
  const medianOf = (pick: (m: Measured) => number | undefined) => {
    const values = runs.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? median(values) : undefined;
  };
  const rss = runs.map((r) => r.rssPeakMb).filter((v): v is number => v !== undefined);
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    rssPeakMb: rss.length ? Math.max(...rss) : undefined,
    bytesPerResponse: medianOf((r) => r.bytesPerResponse),
    cpuUsPerRequest: medianOf((r) => r.cpuUsPerRequest),
    dbCpuUsPerRequest: medianOf((r) => r.dbCpuUsPerRequest),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
  };
}

/** Each target's median cold start. */
export function coldStarts(raw: RunResult): Record<string, number> {
  return Object.fromEntries(
    Object.entries(raw.coldStarts)
      .filter(([, v]) => v.length)
      .map(([k, v]) => [k, median(v)]),
  );
}
