// The import's resolve plan (server/db/import/resolvePlan.ts), without a database: from
// what the staging tables hold, whether each employment is one staged row, where each
// kind's last event comes from, what else the file touches, and whether a full export's
// unchanged employments are set aside first. What each plan writes is checked on both
// engines by the import tests; its SQL by tests/import/resolveSql.test.ts.
import { describe, expect, it } from 'vitest';
import { afterSetAside, kindsAlone, resolvePlan, type StagedSources } from '../../server/db/import/resolvePlan.js';

const staged = (set: Partial<StagedSources> = {}): StagedSources => ({
  employeeRows: 10,
  oneEmployeeRecordEach: true,
  deletes: new Set(),
  kindTables: new Set(),
  ...set,
});
const sourceOf = (plan: ReturnType<typeof resolvePlan>) => Object.fromEntries(plan.kinds.map((k) => [k.kind, k.source]));

describe('the resolve plan', () => {
  it('one employee record each: every kind from its employee record, nothing else touched', () => {
    const plan = resolvePlan(staged(), [], 'probe');
    expect(plan.oneRecordEach).toBe(true);
    expect(new Set(Object.values(sourceOf(plan)))).toEqual(new Set(['employee record']));
    expect(plan.touchedOtherwise).toEqual({ deletes: false, snapshot: false, kindTables: [] });
    expect(plan).toMatchObject({ fullExport: false, setAside: false, deletes: false, employeeRecordsReach: 'probe' });
  });

  it('a kind staged alone or deleted: from the employee record unless a later record or delete', () => {
    const plan = resolvePlan(staged({ kindTables: new Set(['coverage']), deletes: new Set(['membership']) }), [], 'probe');
    expect(sourceOf(plan)).toMatchObject({ coverage: 'employee record or alone', membership: 'employee record or alone', invitation: 'employee record' });
    expect(kindsAlone(plan)).toEqual(['membership', 'coverage']);
    expect(plan.touchedOtherwise).toEqual({ deletes: true, snapshot: false, kindTables: ['coverage'] });
    expect(plan.deletes).toBe(true);
  });

  it('two records for an employment, or an employee deleted: every event ordered by line', () => {
    for (const facts of [staged({ oneEmployeeRecordEach: false }), staged({ deletes: new Set(['employee']) })]) {
      const plan = resolvePlan(facts, [], 'join');
      expect(plan.oneRecordEach).toBe(false);
      expect(new Set(Object.values(sourceOf(plan)))).toEqual(new Set(['events by line']));
      expect(plan.fullExport).toBe(false);
    }
  });

  it('a snapshot touches its companies’ employments, and is not a full export', () => {
    const plan = resolvePlan(staged(), ['co-1'], 'join');
    expect(plan.touchedOtherwise.snapshot).toBe(true);
    expect(plan.snapshotCompanies).toEqual(['co-1']);
    expect(plan.fullExport).toBe(false);
  });

  it('a full export (one record each, no delete or snapshot, joined): set aside first, the rest reached as their number calls for', () => {
    const plan = resolvePlan(staged({ employeeRows: 1000 }), [], 'join');
    expect(plan.fullExport).toBe(true);
    expect(resolvePlan(staged({ employeeRows: 1000 }), [], 'probe').fullExport).toBe(false);
    // 10 left of 1000 stored: probed; 990 left: joined; none set aside: nothing to add back.
    expect(afterSetAside(plan, staged({ employeeRows: 1000 }), 990, 1000)).toMatchObject({ setAside: true, employeeRecordsReach: 'probe', reach: 'join' });
    expect(afterSetAside(plan, staged({ employeeRows: 1000 }), 10, 1000)).toMatchObject({ setAside: true, employeeRecordsReach: 'join' });
    expect(afterSetAside(plan, staged({ employeeRows: 1000 }), 0, 1000).setAside).toBe(false);
  });
});
