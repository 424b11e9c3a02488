// The replica suites need real PostgreSQL servers they control: where the binaries are
// absent each suite is skipped, saying what is missing; in CI (CI=true) it fails instead.
import { describe, it } from 'vitest';
import { inCi, whereReplicationRuns } from '../../support/replicatedCluster.js';

export function describeReplication(name: string, body: () => void, options: { pgbouncer?: boolean } = {}): void {
  const { ok, missing } = whereReplicationRuns(options.pgbouncer);
  if (ok) return void describe(name, body);
  if (inCi)
    return void describe(name, () =>
      it('has what it needs', () => {
        throw new Error(`CI must run ${name}: ${missing} missing`);
      }),
    );
  describe.skip(`${name} (skipped: ${missing} not installed)`, () => it('skipped', () => {}));
}
