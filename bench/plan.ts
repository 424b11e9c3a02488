// The measurements of one run, as data: groups of scenarios, each measured on several
// targets, walked in alternating rounds; and the names the run gives them.
import type { PersonFilter } from '../server/domain/persons.js';
import type { CredentialKey } from './dataset/generate.js';
import type { EmployeeAsk, EmployeeKind, HttpRequestSpec, PersonKind } from './scenarios.js';

export type Engine = 'postgres' | 'pglite';
export const engineName: Record<Engine, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };
/** The service on an engine, as its process is named. */
export const serviceName = (engine: Engine) => `service (${engineName[engine]})`;

/** A target is either an HTTP process (by name in `processes`) or a direct-SQL runner. */
export type TargetRef = { kind: 'http'; process: string } | { kind: 'direct'; engine: Engine };

export interface Scenario {
  id: string;
  group: 'hello' | Engine;
  label: string;
  kind?: PersonKind | EmployeeKind | 'worstCase';
  credential?: CredentialKey;
  token: string;
  http: HttpRequestSpec[];
  /** The same requests as findPersons filters (or the employees query's), for the direct-SQL reference. */
  direct?: (PersonFilter | EmployeeAsk)[];
  /** target label → how to reach it; the first is the one under test, the others references. */
  targets: Record<string, TargetRef>;
  note?: string;
}

export interface Step {
  round: number;
  scenario: Scenario;
  target: string;
}

/**
 * Every round measures every scenario on every target, the targets in turn (A B, then B A):
 * neither always goes first into warm caches, and the host's noise lands on all alike.
 */
export function alternatingSteps(scenarios: Scenario[], rounds: number): Step[] {
  const steps: Step[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      const targets = Object.keys(scenario.targets);
      for (const target of round % 2 ? targets : [...targets].reverse()) steps.push({ round, scenario, target });
    }
  }
  return steps;
}
