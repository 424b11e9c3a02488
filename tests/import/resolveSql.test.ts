// Golden SQL: every statement the import's resolve step (server/db/import/resolve.ts) sends,
// in order, for each shape of staged file it tells apart (one employee record each or
// several, records of a kind staged alone, deletes, whole-company snapshots, probed or
// joined stored rows, a full export whose unchanged employments are set aside first),
// committed as text under tests/import/golden/. A change to the SQL shows in review as a
// change of these files (`npx vitest run --project fast tests/import/resolveSql.test.ts -u`
// rewrites them). What each shape writes is checked on both engines by the import tests.
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../server/db/engines/database.js';
import { resolveImport } from '../../server/db/import/resolve.js';

interface Facts {
  /** What the staging tables hold (stagedSources). */
  employeeRows: number;
  oneEach: boolean;
  deletes: string[];
  kindTables: string[];
  snapshotCompanies: string[];
  reach: 'probe' | 'join';
  /** The planner's count of stored employments, and how many a full export leaves unchanged. */
  stored?: number;
  unchanged?: number;
}

/** A transaction that answers the resolve's reads from `facts` and keeps every statement it was sent, as text. */
function recorder(facts: Facts): { tx: Transaction; sent: () => string } {
  const statements: string[] = [];
  const answer = (sql: string): unknown[] => {
    if (sql.includes('AS employee_rows'))
      return [{ employee_rows: facts.employeeRows, one_each: facts.oneEach, deletes: facts.deletes, kind_tables: facts.kindTables }];
    if (sql.includes('reltuples')) return [{ stored: facts.stored ?? 0 }];
    if (sql.includes('AS n FROM import_unchanged_employments')) return [{ n: facts.unchanged ?? 0 }];
    return [];
  };
  const tx = {
    query: async (sql: string, params: unknown[] = []) => {
      statements.push(`-- params: ${JSON.stringify(params)}\n${sql}\n`);
      return answer(sql);
    },
  } as unknown as Transaction;
  return { tx, sent: () => statements.join('\n-- next statement\n') };
}

const changes: Facts = { employeeRows: 10, oneEach: true, deletes: [], kindTables: [], snapshotCompanies: [], reach: 'probe' };

const shapes: [string, Facts][] = [
  ['one-record-each-probed', changes],
  ['one-record-each-joined', { ...changes, reach: 'join', stored: 5 }],
  ['kind-staged-alone', { ...changes, kindTables: ['membership'] }],
  ['kind-deleted', { ...changes, deletes: ['membership'] }],
  ['kinds-staged-alone-and-deleted', { ...changes, kindTables: ['membership', 'coverage'], deletes: ['invitation'] }],
  ['employee-deleted', { ...changes, deletes: ['employee', 'coverage'], kindTables: ['coverage', 'linkedUser'] }],
  ['snapshot', { ...changes, snapshotCompanies: ['co-1', 'co-2'] }],
  ['several-records-each', { ...changes, oneEach: false, kindTables: ['invitation'] }],
  ['several-records-each-deletes-snapshot-joined', { ...changes, oneEach: false, deletes: ['employee'], snapshotCompanies: ['co-1'], reach: 'join' }],
  ['full-export-rest-probed', { ...changes, employeeRows: 1000, reach: 'join', stored: 1000, unchanged: 990 }],
  ['full-export-rest-joined', { ...changes, employeeRows: 1000, reach: 'join', stored: 1000, unchanged: 10, kindTables: ['participation'] }],
];

describe('the resolve step sends', () => {
  for (const [name, facts] of shapes) {
    it(name, async () => {
      const { tx, sent } = recorder(facts);
      await resolveImport(tx, facts.snapshotCompanies, facts.reach);
      await expect(sent()).toMatchFileSnapshot(`golden/resolve/${name}.sql`);
    });
  }
});
