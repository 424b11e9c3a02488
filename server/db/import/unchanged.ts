// A file that restates a large share of the stored employments, each once, and deletes
// nothing (a source's full export) leaves most of them as they are. Those are set aside
// first, before the resolve compares employments column by column (resolve.ts): each
// employment, staged and stored, is reduced to a digest of every column it is written
// with, two 64-bit hashes of the whole row (seeds 0 and 1), and the digests, not the wide
// rows, are joined. The staged row is taken as it would be stored, with none of the
// per-employment records it lacks; a stored one it lacks makes the digests differ, and
// the full comparison keeps it. Where the digests are equal nothing about the employment
// changes: its row in the resolve's table is its keys and 'unchanged'.
import { type EmploymentRecordKind, type EmploymentRecordKindName, employmentRecordKindNames, employmentRecordKinds } from '../../domain/employment.js';
import { columnType, employmentColumns } from '../employmentColumns.js';
import type { Transaction } from '../engines/database.js';
import { inlineLine, kindStagingTable } from './staging.js';

const kinds = employmentRecordKindNames;
const digested = employmentColumns.filter((c) => c.column !== 'id');
/** The per-employment records' flags (participation's has_participation). */
const flags = new Set<string>(kinds.flatMap((kind) => (employmentRecordKinds[kind] as EmploymentRecordKind).flag ?? []));

/** The two hashes of an employment's written columns, each column as `column` gives it. */
const digests = (column: (name: string) => string) =>
  [0, 1].map((seed) => `hash_record_extended(ROW(${digested.map((c) => column(c.column)).join(', ')}), ${seed}) AS d${seed}`).join(', ');
/** A staged column as stored: a record's flag is false, not null, where the record is absent. */
const stagedAsStored = (column: string) => (flags.has(column) ? `coalesce(i.${column}, false)` : `i.${column}`);
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
 * all of it. Returns how many were set aside. (The fences make the join hash digests, not
 * whole rows.)
 */
export async function setAsideUnchanged(
  tx: Transaction,
  columns: readonly string[],
  unwritten: ReadonlySet<string>,
  kindsAlone: readonly EmploymentRecordKindName[],
): Promise<number> {
  const values = columns.map((name) => `${unwritten.has(name) ? `NULL::${columnType(name)}` : (unchangedValues.get(name) ?? `le.${name}`)} AS ${name}`);
  // (One anti-join over every kind's records staged alone: one probe per staged row.)
  const whole = kindsAlone.length
    ? `WHERE NOT EXISTS (SELECT 1 FROM (${kindsAlone.map((kind) => `SELECT employee_id FROM ${kindStagingTable[kind]}`).join(' UNION ALL ')}) k WHERE k.employee_id = i.id)`
    : '';
  await tx.query(`
    CREATE TEMP TABLE import_unchanged_employments ON COMMIT DROP AS
    SELECT ${values.join(', ')}
      FROM (SELECT i.*, ${digests(stagedAsStored)} FROM import_employees i ${whole} OFFSET 0) le
      JOIN (SELECT e.id, ${digests((c) => `e.${c}`)} FROM employees e OFFSET 0) e ON e.id = le.id AND e.d0 = le.d0 AND e.d1 = le.d1`);
  await tx.query('ANALYZE import_unchanged_employments (id)');
  const [row] = await tx.query<{ n: number }>('SELECT count(*)::float8 AS n FROM import_unchanged_employments');
  return row!.n;
}
