// What a replica run measured (run.ts writes it, report.ts reads it): the figures kept in
// replicas.json, and the names of the two services compared.
import type { RunStamp } from '../machine.js';
import type { BenchOptions } from '../options.js';
import type { ComparedWith, Comparison } from '../sideBySide.js';

export const FROM_PRIMARY = 'service reading from the primary';
export const FROM_REPLICA = 'service reading from a replica';

export interface ReplicaRunResult extends RunStamp {
  postgresVersion?: string;
  options: ComparedWith & Pick<BenchOptions, 'kinds'> & { people: number };
  dataset: { people: number; companies: number; credential: string; credentialCompanies: number };
  /** Per scenario and target, each round's measurement. */
  comparison: Comparison[];
  /** The routing's own cost: the bench process's CPU per read of the person query on the primary and through a ReadRouter (client side only). */
  routing?: { label: string; reads: number; primaryUs: number; routerUs: number }[];
}
