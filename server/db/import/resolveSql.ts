// The resolve step's statements (resolve.ts), from its plan (resolvePlan.ts) where they
// depend on the file. Each employment the file touches comes out as its whole row after
// the file beside the stored row, and how the two compare; one renderer per part.
// tests/import/resolveSql.test.ts holds the text of every shape.
import { type EmploymentRecordKindName, employeeFields } from '../../domain/employment.js';
import { columnType, employmentColumns, foldedColumns, kindColumns, kindPresent } from '../employmentColumns.js';
import { storedRow } from './reach.js';
import { kindsAlone, type ResolvePlan } from './resolvePlan.js';
import { inlineKindColumns, inlineLine, kindStagingTable } from './staging.js';

type Kind = EmploymentRecordKindName;
type Columns = [name: string, sql: string][];

/** An employment's own columns (from its employee record), besides its id. */
const ownColumns = [...employeeFields.map((f) => f.column), ...foldedColumns.map((f) => f.column)].filter((c) => c !== 'id');
/** The stored employment's column beside the one after the file (problems.ts reads stored_person_id). */
export const storedName = (column: string) => `stored_${column}`;
const nulls = (columns: string[]) => columns.map((c) => `NULL::${columnType(c)} AS ${c}`).join(', ');

/** `outcome` from whether the record was stored, is there after, and whether it differs. */
export const outcome = (stored: string, after: string, differs: string, deleting: string) => `
  CASE WHEN NOT (${after}) THEN CASE WHEN ${stored} THEN 'deleted' WHEN ${deleting} THEN 'already_absent' END
       WHEN NOT (${stored}) THEN 'added'
       WHEN ${differs} THEN 'changed' ELSE 'unchanged' END`;

/**
 * The stored row (null where none is) comes as plain columns named storedName(column), not
 * as one composite value: each field read from a composite walks the row from its start
 * again. With one employee record each, the employments' rows (le: the employee records,
 * then the others touched) carry it; else the touched ids (t).
 */
const rowOf = (plan: ResolvePlan) => (plan.oneRecordEach ? 'le' : 't');

/**
 * With one employee record each, the kinds staged alone (or deleted) come in one relation,
 * a row for each employment that has such an event, with each kind's columns named
 * aloneColumn(kind, name): one join for them all, where a join per kind passed every
 * employee record through once more for each.
 */
const ALONE = 'alone';
const aloneColumn = (kind: Kind, name: string) => `${kind}__${name}`;

/** A kind's last event for the employment: its line, whether a delete, whether of the kind itself, and a column's value. */
function lastEvent(kind: Kind, source: ResolvePlan['kinds'][number]['source']) {
  const inline = `le.${inlineLine(kind)}`;
  if (source === 'events by line')
    return { line: `${kind}.line`, deleting: `${kind}.deleting`, explicit: `${kind}.explicit`, value: (c: string) => `${kind}.${c}` };
  if (source === 'employee record')
    return {
      line: inline,
      deleting: `CASE WHEN ${inline} IS NOT NULL THEN false END`,
      explicit: `CASE WHEN ${inline} IS NOT NULL THEN true END`,
      value: (c: string) => `le.${c}`,
    };
  // The record staged with the employee's, or one staged alone if that came later.
  const event = (name: string) => `${ALONE}.${aloneColumn(kind, name)}`;
  const alone = `(${event('line')} IS NOT NULL AND (${inline} IS NULL OR ${event('line')} > ${inline}))`;
  const pick = (fromAlone: string, fromInline: string) => `CASE WHEN ${alone} THEN ${fromAlone} WHEN ${inline} IS NOT NULL THEN ${fromInline} END`;
  return {
    line: `greatest(${inline}, ${event('line')})`,
    deleting: pick(event('deleting'), 'false'),
    explicit: pick(event('explicit'), 'true'),
    value: (c: string) => pick(event(c), `le.${c}`),
  };
}

/** The employment after the file, column by column (over le: its last employee event, s: its snapshot, each kind's last event, and the stored row). */
export function afterColumns(plan: ResolvePlan): Columns {
  const row = rowOf(plan);
  const stored = (column: string) => `${row}.${storedName(column)}`;
  const kindAfter = (kind: Kind, source: ResolvePlan['kinds'][number]['source']): Columns => {
    const last = lastEvent(kind, source);
    return [
      [`${kind}_line`, last.line],
      [`${kind}_deleting`, last.deleting],
      [`${kind}_explicit`, last.explicit],
      // (A flag is false, never null, where there is no record.)
      ...kindColumns(kind).map(({ column: c, type }): [string, string] =>
        type === 'boolean'
          ? [c, `coalesce(CASE WHEN ${last.line} IS NOT NULL THEN ${last.value(c)} ELSE ${stored(c)} END, false)`]
          : [c, `CASE WHEN ${last.line} IS NOT NULL THEN ${last.value(c)} ELSE ${stored(c)} END`],
      ),
    ];
  };
  // An employment with no event staged alone (nearly every one of a large file) takes its
  // employee record's, without weighing the two: the same columns, for less work a row.
  const kindColumnsAfter = ({ kind, source }: ResolvePlan['kinds'][number]): Columns => {
    const columns = kindAfter(kind, source);
    if (source !== 'employee record or alone') return columns;
    const inline = kindAfter(kind, 'employee record');
    return columns.map(([name, sql], i): [string, string] => [name, `CASE WHEN ${ALONE}.id IS NULL THEN ${inline[i]![1]} ELSE ${sql} END`]);
  };
  return [
    ['id', `${row}.id`],
    ['employee_line', 'le.line'],
    ['employee_deleting', 'coalesce(le.deleting, false) OR (s.id IS NOT NULL AND le.line IS NULL)'],
    ['snapshot_company', 's.company_id'],
    ['stored', `${stored('id')} IS NOT NULL`],
    ['present', `CASE WHEN le.line IS NOT NULL THEN NOT le.deleting WHEN s.id IS NOT NULL THEN false ELSE ${stored('id')} IS NOT NULL END`],
    ...ownColumns.map((c): [string, string] => [c, `CASE WHEN le.line IS NOT NULL THEN le.${c} ELSE ${stored(c)} END`]),
    ...plan.kinds.flatMap(kindColumnsAfter),
  ];
}

/** How the employment compares with what is stored: its own fields, each kind, and whether it is written. */
export function outcomeColumns(kinds: readonly Kind[]): Columns {
  const differs = (columns: string[]) =>
    `(${columns.map((c) => `f.${c}`).join(', ')}) IS DISTINCT FROM (${columns.map((c) => `f.${storedName(c)}`).join(', ')})`;
  const storedKind = (kind: Kind) => kindPresent(kind, (c) => `f.${storedName(c)}`);
  return [
    [
      'employee',
      `CASE WHEN f.employee_line IS NOT NULL OR f.snapshot_company IS NOT NULL
            THEN ${outcome('f.stored', 'f.present', differs(ownColumns), 'f.employee_deleting')} END`,
    ],
    ...kinds.map((kind): [string, string] => [
      kind,
      // Counted where the file has a record of this kind for the employment, or where
      // one stored goes with its employment.
      `CASE WHEN f.${kind}_explicit OR (f.stored AND ${storedKind(kind)} AND (f.${kind}_line IS NOT NULL OR NOT f.present))
            THEN ${outcome(`(f.stored AND ${storedKind(kind)})`, `(f.present AND ${kindPresent(kind, (c) => `f.${c}`)})`, differs(kindColumns(kind).map((c) => c.column)), `coalesce(f.${kind}_deleting AND f.${kind}_explicit, false)`)} END`,
    ]),
    ['write', `f.present AND (NOT f.stored OR ${differs(employmentColumns.map((c) => c.column).filter((c) => c !== 'id'))})`],
  ];
}

/**
 * The last event of each key is the one no later line of the same key follows (an
 * anti-join on narrow keys, where DISTINCT ON would sort the whole wide rows).
 */
const lastOf = (events: string, lines: string) =>
  `SELECT * FROM (${events}) ev WHERE NOT EXISTS (SELECT 1 FROM (${lines}) l WHERE l.id = ev.id AND l.line > ev.line)`;
const employeeDeletes = "FROM import_deletes WHERE record = 'employee'";

/**
 * A kind's last events: its records (staged alone, and with their employee's unless those
 * are taken from the employee's row), its deletes, and its employment's deletes (which
 * clear its records without being a record of theirs).
 */
function lastKind(kind: Kind, byLine: boolean): string {
  const columns = kindColumns(kind).map((c) => c.column);
  const deletes = `FROM import_deletes WHERE record = '${kind}'`;
  const inline = `FROM import_employees WHERE ${inlineLine(kind)} IS NOT NULL`;
  const events = [
    `SELECT employee_id AS id, line, false AS deleting, true AS explicit, ${columns.join(', ')} FROM ${kindStagingTable[kind]}`,
    `SELECT id::uuid, line, true, true, ${nulls(columns)} ${deletes}`,
    ...(byLine
      ? [
          `SELECT id, ${inlineLine(kind)}, false, true, ${columns.join(', ')} ${inline}`,
          `SELECT id::uuid, line, true, false, ${nulls(columns)} ${employeeDeletes}`,
        ]
      : []),
  ];
  const lines = [
    `SELECT employee_id AS id, line FROM ${kindStagingTable[kind]}`,
    `SELECT id::uuid, line ${deletes}`,
    ...(byLine ? [`SELECT id, ${inlineLine(kind)} ${inline}`, `SELECT id::uuid, line ${employeeDeletes}`] : []),
  ];
  return lastOf(events.join('\n       UNION ALL '), lines.join(' UNION ALL '));
}

/** The last events of the kinds staged alone, one row per employment that has any (ALONE). */
function lastAlone(kinds: readonly Kind[]): string {
  // (The id of the kinds joined so far: whichever of them has the employment.)
  const idOf = (joined: readonly Kind[]) => (joined.length === 1 ? `${joined[0]}.id` : `coalesce(${joined.map((k) => `${k}.id`).join(', ')})`);
  const from = kinds.map((kind, i) =>
    i ? `FULL JOIN (${lastKind(kind, false)}) ${kind} ON ${kind}.id = ${idOf(kinds.slice(0, i))}` : `(${lastKind(kind, false)}) ${kind}`,
  );
  const columns = kinds.flatMap((kind) =>
    ['line', 'deleting', 'explicit', ...kindColumns(kind).map((c) => c.column)].map((name) => `${kind}.${name} AS ${aloneColumn(kind, name)}`),
  );
  return `SELECT ${idOf(kinds)} AS id, ${columns.join(', ')}
          FROM ${from.join('\n          ')}`;
}

const employeeRecords = `SELECT id, line, false AS deleting, ${[...ownColumns, ...inlineKindColumns.map((c) => c.column)].join(', ')} FROM import_employees i`;
/** An employee record's columns as nulls, where an event is not one (a delete, or an employment touched otherwise). */
const noEmployeeRecord = `${nulls(ownColumns)}, ${inlineKindColumns.map((c) => `NULL::${c.type} AS ${c.column}`).join(', ')}`;

/** Each employment's last employee event: its one record (less those set aside as unchanged), or the last by line. */
function lastEmployee(plan: ResolvePlan): string {
  if (plan.oneRecordEach)
    return `${employeeRecords}${plan.setAside ? ' WHERE NOT EXISTS (SELECT 1 FROM import_unchanged_employments u WHERE u.id = i.id)' : ''}`;
  return lastOf(
    `${employeeRecords}
       UNION ALL SELECT id::uuid, line, true, ${noEmployeeRecord} ${employeeDeletes}`,
    `SELECT id, line FROM import_employees UNION ALL SELECT id::uuid, line ${employeeDeletes}`,
  );
}

/** The employments the file touches other than by an employee record, each once. */
function touchedOtherwise({ touchedOtherwise: touched }: ResolvePlan): string[] {
  return [
    ...(touched.deletes ? [`SELECT id::uuid FROM import_deletes WHERE record = 'employee' OR record = ANY ($2::text[])`] : []),
    ...(touched.snapshot ? ['SELECT id FROM snapshot'] : []),
    ...touched.kindTables.map((kind) => `SELECT employee_id AS id FROM ${kindStagingTable[kind]}`),
  ];
}

/** The employments, each with its stored row (joined first, behind a fence, probed or hashed as planned). */
function employments(plan: ResolvePlan): string {
  const storedColumns = employmentColumns.map(({ column }) => `e.${column} AS ${storedName(column)}`).join(', ');
  const touched = touchedOtherwise(plan);
  if (!plan.oneRecordEach)
    return `(SELECT t.id, ${storedColumns} FROM (${['SELECT DISTINCT id FROM import_employees', ...touched].join(' UNION ')}) t ${storedRow(plan.reach, 'employees', 'e', 'id', 't.id')} OFFSET 0) t
        LEFT JOIN last_employee le ON le.id = t.id`;
  // Its employee record's row, or for one the file touches otherwise, nulls in their place.
  const others = touched.length
    ? `UNION ALL
        SELECT x.id, NULL::integer, NULL::boolean, ${noEmployeeRecord}, ${storedColumns}
          FROM (${touched.join(' UNION ')}) x ${storedRow(plan.reach, 'employees', 'e', 'id', 'x.id')}
         WHERE NOT EXISTS (SELECT 1 FROM import_employees i WHERE i.id = x.id)`
    : '';
  return `(SELECT le.*, ${storedColumns} FROM last_employee le ${storedRow(plan.employeeRecordsReach, 'employees', 'e', 'id', 'le.id')}
        ${others}
        OFFSET 0) le`;
}

/** Only an employment the file writes keeps its whole row; the checks and the deletes need the others' keys alone. */
export const writtenOnly: ReadonlySet<string> = new Set(employmentColumns.map((c) => c.column).filter((c) => !['id', 'company_id', 'person_id'].includes(c)));

/** The columns of import_employments, in order (unchanged.ts writes the same). */
export const employmentsColumnNames = (plan: ResolvePlan) => [
  ...afterColumns(plan).map(([name]) => name),
  storedName('person_id'),
  ...outcomeColumns(plan.kinds.map((k) => k.kind)).map(([name]) => name),
];

/**
 * import_employments: every employment the file touches after the file, beside its stored
 * row and outcomes; the stored employment reached by key (reach.ts) once, for both. (The
 * fence under the outcomes keeps `write` computed once, not once per column.)
 */
export function employmentsStatement(plan: ResolvePlan): { sql: string; params: unknown[] } {
  const row = rowOf(plan);
  const after = afterColumns(plan);
  const outcomes = outcomeColumns(plan.kinds.map((k) => k.kind));
  const alone = kindsAlone(plan);
  const kindJoins = [
    ...plan.kinds.filter((k) => k.source === 'events by line').map(({ kind }) => `LEFT JOIN (${lastKind(kind, true)}) ${kind} ON ${kind}.id = ${row}.id`),
    ...(alone.length ? [`LEFT JOIN (${lastAlone(alone)}) ${ALONE} ON ${ALONE}.id = ${row}.id`] : []),
  ];
  const sql = `
    CREATE TEMP TABLE import_employments ON COMMIT DROP AS
    WITH last_employee AS (${lastEmployee(plan)}),
    -- A snapshot deletes the stored employments of its companies that the file has no employee record for.
    snapshot AS (
      SELECT e.id, e.company_id FROM employees e
       WHERE e.company_id = ANY ($1::text[]) AND NOT EXISTS (SELECT 1 FROM import_employees i WHERE i.id = e.id)
    ),
    after AS (
      SELECT ${after.map(([name, sql]) => `${sql} AS ${name}`).join(',\n             ')},
             ${employmentColumns.map(({ column }) => `${row}.${storedName(column)}`).join(', ')}
        FROM ${employments(plan)}
        LEFT JOIN snapshot s ON s.id = ${row}.id
        ${kindJoins.join('\n        ')}
    )
    SELECT ${after.map(([name]) => (writtenOnly.has(name) ? `CASE WHEN o.write THEN o.${name} END AS ${name}` : `o.${name}`)).join(', ')},
           o.${storedName('person_id')}, ${outcomes.map(([name]) => `o.${name}`).join(', ')}
      FROM (SELECT f.*, ${outcomes.map(([name, sql]) => `${sql} AS ${name}`).join(',\n                   ')}
              FROM after f OFFSET 0) o
    ${plan.setAside ? `UNION ALL SELECT ${employmentsColumnNames(plan).join(', ')} FROM import_unchanged_employments` : ''}`;
  return { sql, params: plan.deletes ? [plan.snapshotCompanies, plan.kinds.map((k) => k.kind)] : [plan.snapshotCompanies] };
}
