// The changes a write should have recorded, worked out apart from the triggers that record
// them: the company data before and after the write, set side by side, row by row
// (docs/decisions/0022-change-feed.md says the rules). Tests compare what the feed holds
// for the write with this, as multisets (one statement's rows have no order among
// themselves), and the order of one record's changes too.
import type { Queryable } from '../../server/db/engines/database.js';

export interface DataState {
  /** Each employment: its company, person link, and every other column as text. */
  employees: Map<string, { companyId: string; personId: string | null; fields: string }>;
  /** Each person's times. */
  persons: Map<string, string>;
  companies: Set<string>;
}

export interface FeedChange {
  companyId: string;
  kind: string;
  employeeId: string | null;
  personId: string | null;
}

export async function dataState(db: Queryable): Promise<DataState> {
  const employees = await db.query<{ id: string; company_id: string; person_id: string | null; fields: string }>(
    `SELECT id::text, company_id, person_id::text, (to_jsonb(e) - 'id' - 'company_id' - 'person_id' - 'person_created_at' - 'person_updated_at')::text AS fields FROM employees e`,
  );
  const persons = await db.query<{ id: string; times: string }>(`SELECT id::text, created_at::text || ' ' || updated_at::text AS times FROM persons`);
  const companies = await db.query<{ id: string }>('SELECT id FROM companies');
  return {
    employees: new Map(employees.map((e) => [e.id, { companyId: e.company_id, personId: e.person_id, fields: e.fields }])),
    persons: new Map(persons.map((p) => [p.id, p.times])),
    companies: new Set(companies.map((c) => c.id)),
  };
}

/** What the feed should hold for a write that took `before` to `after`; `personGone` is the kind a deleted person's change has. */
export function expectedChanges(before: DataState, after: DataState, personGone: 'person.deleted' | 'person.erased' = 'person.deleted'): FeedChange[] {
  const changes: FeedChange[] = [];
  const add = (companyId: string, kind: string, employeeId: string | null, personId: string | null) => changes.push({ companyId, kind, employeeId, personId });
  for (const id of new Set([...before.employees.keys(), ...after.employees.keys()])) {
    const was = before.employees.get(id);
    const is = after.employees.get(id);
    if (!was && is) add(is.companyId, 'employee.created', id, is.personId);
    else if (was && !is) add(was.companyId, 'employee.deleted', id, was.personId);
    else if (was && is && was.companyId !== is.companyId) {
      add(was.companyId, 'employee.deleted', id, was.personId);
      add(is.companyId, 'employee.created', id, is.personId);
    } else if (was && is) {
      if (was.fields !== is.fields) add(is.companyId, 'employee.updated', id, is.personId);
      if (was.personId !== is.personId) {
        if (was.personId) add(was.companyId, 'employee.unlinked', id, was.personId);
        if (is.personId) add(is.companyId, 'employee.linked', id, is.personId);
      }
    }
  }
  for (const [id, times] of before.persons) {
    const now = after.persons.get(id);
    if (now !== undefined && now !== times) {
      // Where they were employed when their times were written: an import writes persons
      // before employments (a company they join in the same file has employee.created).
      const companies = new Set([...before.employees.values()].filter((e) => e.personId === id).map((e) => e.companyId));
      for (const companyId of companies) add(companyId, 'person.updated', null, id);
    }
    if (now === undefined) {
      const left = new Set(
        changes.filter((c) => c.personId === id && (c.kind === 'employee.deleted' || c.kind === 'employee.unlinked')).map((c) => c.companyId),
      );
      for (const companyId of left) add(companyId, personGone, null, id);
    }
  }
  for (const id of before.companies) if (!after.companies.has(id)) add(id, 'company.deleted', null, null);
  return changes;
}

/** The last position handed out. */
export async function feedHead(db: Queryable): Promise<bigint> {
  const [row] = await db.query<{ position: string }>('SELECT position::text AS position FROM change_feed_head');
  return BigInt(row!.position);
}

/** Every change recorded after `position`, in feed order. */
export async function changesAfter(db: Queryable, position: bigint): Promise<(FeedChange & { position: bigint })[]> {
  const rows = await db.query<{ position: string; company_id: string; kind: string; employee_id: string | null; person_id: string | null }>(
    'SELECT position::text AS position, company_id, kind, employee_id::text, person_id::text FROM changes WHERE position > $1 ORDER BY position',
    [position.toString()],
  );
  return rows.map((r) => ({ position: BigInt(r.position), companyId: r.company_id, kind: r.kind, employeeId: r.employee_id, personId: r.person_id }));
}

const key = (c: FeedChange) => `${c.companyId} ${c.kind} ${c.employeeId} ${c.personId}`;
/** A multiset of changes, sorted, for toEqual. */
export const asMultiset = (changes: readonly FeedChange[]) => changes.map(key).sort();

/** One record's changes in the order recorded (a move: deleted before created; a relink: unlinked before linked). */
export function perRecordOrder(changes: readonly FeedChange[]): Map<string, string[]> {
  const order = new Map<string, string[]>();
  for (const c of changes) if (c.employeeId) order.set(c.employeeId, [...(order.get(c.employeeId) ?? []), c.kind]);
  return order;
}
