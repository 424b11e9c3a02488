// The resolve step's plan (resolve.ts): from what the staging tables hold, how the
// employments after the file are assembled, decided without SQL (resolveSql.ts renders
// it; tests/import/resolvePlan.test.ts checks it without a database).
//
// Where each employment has one employee record and none is deleted, that record is its
// last, and a kind's record staged with it (staging.ts) is its last of that kind unless a
// later one was staged alone: an employment is then one staged row, with no search for
// last events across the file. Otherwise every event is ordered by line. A file that
// restates a large share of the stored employments, each once and deleting nothing (a
// full export), first sets aside those it leaves as they are (unchanged.ts); the rest
// reach their stored rows as their own number calls for.
import { type EmploymentRecordKindName, employmentRecordKindNames } from '../../domain/employment.js';
import { type Reach, reachFor } from './reach.js';

/** What the staging tables hold, as the employments' resolve needs to know it. */
export interface StagedSources {
  /** The staged employee records. */
  employeeRows: number;
  /** No employment has two employee records in the file. */
  oneEmployeeRecordEach: boolean;
  /** The kinds of records the file deletes ('employee', 'membership', ...). */
  deletes: ReadonlySet<string>;
  /** The kinds with records staged alone (not with their employee record). */
  kindTables: ReadonlySet<string>;
}

/**
 * Where a kind's last event for an employment comes from: the events of the whole file
 * ordered by line; its employee record's row alone; or that row, unless a record staged
 * alone came later (or a delete).
 */
export type KindSource = 'events by line' | 'employee record' | 'employee record or alone';

export interface ResolvePlan {
  /** Each employment is one staged row (one employee record each, no employee deleted), else its events are ordered by line. */
  oneRecordEach: boolean;
  /** Each kind of per-employment record and where its last event comes from. */
  kinds: readonly { kind: EmploymentRecordKindName; source: KindSource }[];
  /** The ways a file touches employments other than by an employee record: deletes, snapshots, kinds staged alone. */
  touchedOtherwise: { deletes: boolean; snapshot: boolean; kindTables: readonly EmploymentRecordKindName[] };
  /** The companies whose snapshots delete the stored employments the file lacks ($1). */
  snapshotCompanies: readonly string[];
  /** Whether the file deletes anything: the kinds' names are then a parameter ($2). */
  deletes: boolean;
  /** How the stored rows of everything but the employee records (one each) are reached. */
  reach: Reach;
  /** A full export: its unchanged employments are set aside first (unchanged.ts). */
  fullExport: boolean;
  /** Employments were set aside as unchanged: the employee records skip them, and they are added back as they are. */
  setAside: boolean;
  /** How the employee records' stored rows are reached (with one record each). */
  employeeRecordsReach: Reach;
}

/** The plan for these staged records, snapshots and reach of the stored rows. */
export function resolvePlan(staged: StagedSources, snapshotCompanies: readonly string[], reach: Reach): ResolvePlan {
  const oneRecordEach = staged.oneEmployeeRecordEach && !staged.deletes.has('employee');
  const alone = (kind: EmploymentRecordKindName) => staged.kindTables.has(kind) || staged.deletes.has(kind);
  const source = (kind: EmploymentRecordKindName): KindSource =>
    !oneRecordEach ? 'events by line' : alone(kind) ? 'employee record or alone' : 'employee record';
  return {
    oneRecordEach,
    kinds: employmentRecordKindNames.map((kind) => ({ kind, source: source(kind) })),
    touchedOtherwise: {
      deletes: staged.deletes.size > 0,
      snapshot: snapshotCompanies.length > 0,
      kindTables: employmentRecordKindNames.filter((kind) => staged.kindTables.has(kind)),
    },
    snapshotCompanies,
    deletes: staged.deletes.size > 0,
    reach,
    fullExport: oneRecordEach && !staged.deletes.size && !snapshotCompanies.length && reach === 'join',
    setAside: false,
    employeeRecordsReach: reach,
  };
}

/** The plan once a full export's unchanged employments are set aside: the rest reach their stored rows as their number calls for. */
export function afterSetAside(plan: ResolvePlan, staged: StagedSources, unchanged: number, storedEmployments: number): ResolvePlan {
  return { ...plan, setAside: Boolean(unchanged), employeeRecordsReach: reachFor(staged.employeeRows - unchanged, storedEmployments) };
}

/** The kinds whose records were staged alone or deleted (with one record each, the others come with their employee record). */
export const kindsAlone = (plan: ResolvePlan) => plan.kinds.filter((k) => k.source === 'employee record or alone').map((k) => k.kind);
