// A file that restates a large share of the stored employments, each once, and deletes
// nothing (a source's full export) leaves most of them as they are. Those are set aside
// first, before the resolve compares employments record by record (resolve.ts): each
// staged employment is joined to its stored row by id, and kept where every column it is
// written with is not distinct from the stored one's. The staged row is taken as it would
// be stored, with none of the per-employment records it lacks; a stored one it lacks makes
// a column differ, and the full comparison keeps it. Where every column is equal nothing
// about the employment changes: its row in the resolve's table is its keys and 'unchanged'.
// (Until 2026-11-30 the rows were reduced to two 64-bit hashes each side and the hashes
// joined, to keep the join narrow: hashing every row four times cost more than joining the
// wide rows, which is also exact; docs/performance.md.)
import { type EmploymentRecordKind, type EmploymentRecordKindName, employmentRecordKindNames, employmentRecordKinds } from '../../domain/employment.js';
import { columnType, employmentColumns } from '../employmentColumns.js';
import type { Transaction } from '../engines/database.js';
import { inlineLine, kindStagingTable } from './staging.js';

const kinds = employmentRecordKindNames;
const compared = employmentColumns.filter((c) => c.column !== 'id');
/** The per-employment records' flags (participation's has_participation). */
const flags = new Set<string>(kinds.flatMap((kind) => (employmentRecordKinds[kind] as EmploymentRecordKind).flag ?? []));

/** An employment's written columns as one row, each column as `column` gives it. */
const writtenRow = (column: (name: string) => string) => `ROW(${compared.map((c) => column(c.column)).join(', ')})`;
/** A staged column as stored: a record's flag is false, not null, where the record is absent. */
const stagedAsStored = (column: string) => (flags.has(column) ? `coalesce(le.${column}, false)` : `le.${column}`);
const recordGiven = (kind: EmploymentRecordKindName) => `le.${inlineLine(kind)} IS NOT NULL`;

/** An unchanged employment's value of each column of the resolve's table that it keeps (le: its staged row); the others are its own columns. */
const unchangedValues = new Map<string, string>([
  ['employee_line', 'le.line'],
  ['employee_deleting', 'false'],
  ['snapshot_company', 'NULL::text'],
  ['stored', 'true'],
  ['present', 'true'],
  ...kinds.flatMap((kind): [string, string][] => [
    [`${kind}_line`, `le.${inlineLine(kind)}`],
    [`${kind}_deleting`, `CASE WHEN ${recordGiven(kind)} THEN false END`],
    [`${kind}_explicit`, `CASE WHEN ${recordGiven(kind)} THEN true END`],
    [kind, `CASE WHEN ${recordGiven(kind)} THEN 'unchanged' END::text`],
  ]),
  ['stored_person_id', 'le.person_id'],
  ['employee', "'unchanged'::text"],
  ['write', 'false'],
]);

/**
 * Creates import_unchanged_employments, with `columns` (the resolve's table's, in its
 * order), holding the employments staged exactly as stored; the columns in `unwritten`
 * (kept only for an employment the import writes) are null. An employment with a record
 * staged on its own (`kindsAlone`) is left to the full comparison: its staged row is not
 * all of it. Returns how many were set aside.
 */
export async function setAsideUnchanged(
  tx: Transaction,
  columns: readonly string[],
  unwritten: ReadonlySet<string>,
  kindsAlone: readonly EmploymentRecordKindName[],
): Promise<number> {
  const values = columns.map((name) => `${unwritten.has(name) ? `NULL::${columnType(name)}` : (unchangedValues.get(name) ?? `le.${name}`)} AS ${name}`);
  // (One anti-join over every kind's records staged alone: one probe per staged row. The
  // fence keeps it there: the planner expects the join below to match next to nothing, and
  // would otherwise probe every kind's records once per row it matches.)
  const whole = kindsAlone.length
    ? `WHERE NOT EXISTS (SELECT 1 FROM (${kindsAlone.map((kind) => `SELECT employee_id FROM ${kindStagingTable[kind]}`).join(' UNION ALL ')}) k WHERE k.employee_id = i.id)`
    : '';
  await tx.query(`
    CREATE TEMP TABLE import_unchanged_employments ON COMMIT DROP AS
    SELECT ${values.join(', ')}
      FROM (SELECT * FROM import_employees i ${whole} OFFSET 0) le
      JOIN employees e ON e.id = le.id AND ${writtenRow(stagedAsStored)} IS NOT DISTINCT FROM ${writtenRow((c) => `e.${c}`)}`);
  await tx.query('ANALYZE import_unchanged_employments (id)');
  const [row] = await tx.query<{ n: number }>('SELECT count(*)::float8 AS n FROM import_unchanged_employments');
  return row!.n;
}
