// What a staged file comes to, before anything is written: for every record it touches,
// the state after the file (records apply in file order, a later record for the same key
// wins, a whole-company snapshot deletes the company's employments the file lacks) beside
// the state stored now, and the outcome (added, changed, unchanged, deleted, already
// absent). problems.ts checks the state after; apply.ts writes it.

import { employeeFields, employmentRecordKindNames } from '../../domain/employment.js';
import { columnType, employmentColumns, foldedColumns, kindColumns, kindPresent } from '../employmentColumns.js';
import type { Transaction } from '../engines/database.js';
import { type Reach, reachFor, storedEmployments, storedRow } from './reach.js';
import { inlineKindColumns, inlineLine, kindStagingTable } from './staging.js';
import { setAsideUnchanged } from './unchanged.js';

/** An employment's own columns (from its employee record), besides its id. */
const ownColumns = [...employeeFields.map((f) => f.column), ...foldedColumns.map((f) => f.column)].filter((c) => c !== 'id');
const kinds = employmentRecordKindNames;
/** The stored employment's column beside the one after the file (problems.ts reads stored_person_id). */
const storedName = (column: string) => `stored_${column}`;

/** `outcome` from whether the record was stored, is there after, and whether it differs. */
const outcome = (stored: string, after: string, differs: string, deleting: string) => `
  CASE WHEN NOT (${after}) THEN CASE WHEN ${stored} THEN 'deleted' WHEN ${deleting} THEN 'already_absent' END
       WHEN NOT (${stored}) THEN 'added'
       WHEN ${differs} THEN 'changed' ELSE 'unchanged' END`;

export async function resolveImport(given: Transaction, snapshotCompanies: readonly string[], reach: Reach): Promise<void> {
  const tx = given;
  // Companies and persons: the last record for each id.
  await tx.query(`
    CREATE TEMP TABLE import_company_outcomes ON COMMIT DROP AS
    WITH events AS (
      SELECT id, line, false AS deleting, name FROM import_companies
      UNION ALL SELECT id, line, true, NULL FROM import_deletes WHERE record = 'company'
    ), last AS (SELECT DISTINCT ON (id) * FROM events ORDER BY id, line DESC)
    SELECT l.id, l.line, l.deleting, l.name, c.id IS NOT NULL AS stored,
           ${outcome('c.id IS NOT NULL', 'NOT l.deleting', 'c.name IS DISTINCT FROM l.name', 'l.deleting')} AS outcome
      FROM last l LEFT JOIN companies c ON c.id = l.id`);
  await tx.query(`
    CREATE TEMP TABLE import_person_outcomes ON COMMIT DROP AS
    WITH events AS (
      SELECT id, line, false AS deleting, created_at, updated_at FROM import_persons
      UNION ALL SELECT id::uuid, line, true, NULL, NULL FROM import_deletes WHERE record = 'person'
    ), last AS (SELECT DISTINCT ON (id) * FROM events ORDER BY id, line DESC)
    SELECT l.id, l.line, l.deleting, l.created_at, l.updated_at, p.id IS NOT NULL AS stored,
           ${outcome('p.id IS NOT NULL', 'NOT l.deleting', '(p.created_at, p.updated_at) IS DISTINCT FROM (l.created_at, l.updated_at)', 'l.deleting')} AS outcome
      FROM last l ${storedRow(reach, 'persons', 'p', 'id', 'l.id')}`);

  // Employments. Each one the file touches (an employee record or delete, one of its
  // per-employment records or their deletes, or a snapshot of its company) comes out as
  // its whole row after the file: the employee's fields from its last record, else as
  // stored; each per-employment kind from its last record or delete (an employee's delete
  // clears them), else as stored. Beside it, how it compares with the stored row, read
  // once for both.
  const staged = await stagedSources(tx);
  // Where each employment has one employee record and none is deleted, that record is its
  // last, and a kind's record staged with it (staging.ts) is its last of that kind unless
  // a later one was staged alone: an employment is then one staged row, with no search
  // for last events across the file. Otherwise every event is ordered by line.
  const oneRecordEach = staged.oneEmployeeRecordEach && !staged.deletes.has('employee');
  const kindsAlone = kinds.filter((kind) => staged.kindTables.has(kind) || staged.deletes.has(kind));
  const nulls = (columns: string[]) => columns.map((c) => `NULL::${columnType(c)} AS ${c}`).join(', ');
  // The stored row (null where none is) comes as plain columns named storedName(column),
  // not as one composite value: each field read from a composite walks the row from its
  // start again. With one employee record each, the employments' rows (le: the employee
  // records, then the others touched) carry it; else the touched ids (t).
  const row = oneRecordEach ? 'le' : 't';
  const stored = (column: string) => `${row}.${storedName(column)}`;
  /** A kind's last event for the employment: its line, whether a delete, whether of the kind itself, and a column's value. */
  const lastEvent = (kind: (typeof kinds)[number]) => {
    const inline = `le.${inlineLine(kind)}`;
    if (!oneRecordEach) return { line: `${kind}.line`, deleting: `${kind}.deleting`, explicit: `${kind}.explicit`, value: (c: string) => `${kind}.${c}` };
    if (!kindsAlone.includes(kind))
      return {
        line: inline,
        deleting: `CASE WHEN ${inline} IS NOT NULL THEN false END`,
        explicit: `CASE WHEN ${inline} IS NOT NULL THEN true END`,
        value: (c: string) => `le.${c}`,
      };
    // The record staged with the employee's, or one staged alone if that came later.
    const alone = `(${kind}.line IS NOT NULL AND (${inline} IS NULL OR ${kind}.line > ${inline}))`;
    const pick = (fromAlone: string, fromInline: string) => `CASE WHEN ${alone} THEN ${fromAlone} WHEN ${inline} IS NOT NULL THEN ${fromInline} END`;
    return {
      line: `greatest(${inline}, ${kind}.line)`,
      deleting: pick(`${kind}.deleting`, 'false'),
      explicit: pick(`${kind}.explicit`, 'true'),
      value: (c: string) => pick(`${kind}.${c}`, `le.${c}`),
    };
  };
  /** The employment after the file, column by column (over le: its last employee event, s: its snapshot, each kind's last event, and the stored row). */
  const after: [name: string, sql: string][] = [
    ['id', `${row}.id`],
    ['employee_line', 'le.line'],
    ['employee_deleting', 'coalesce(le.deleting, false) OR (s.id IS NOT NULL AND le.line IS NULL)'],
    ['snapshot_company', 's.company_id'],
    ['stored', `${stored('id')} IS NOT NULL`],
    ['present', `CASE WHEN le.line IS NOT NULL THEN NOT le.deleting WHEN s.id IS NOT NULL THEN false ELSE ${stored('id')} IS NOT NULL END`],
    ...ownColumns.map((c): [string, string] => [c, `CASE WHEN le.line IS NOT NULL THEN le.${c} ELSE ${stored(c)} END`]),
    ...kinds.flatMap((kind) => {
      const last = lastEvent(kind);
      return [
        [`${kind}_line`, last.line] as [string, string],
        [`${kind}_deleting`, last.deleting] as [string, string],
        [`${kind}_explicit`, last.explicit] as [string, string],
        // (A flag is false, never null, where there is no record.)
        ...kindColumns(kind).map(({ column: c, type }): [string, string] =>
          type === 'boolean'
            ? [c, `coalesce(CASE WHEN ${last.line} IS NOT NULL THEN ${last.value(c)} ELSE ${stored(c)} END, false)`]
            : [c, `CASE WHEN ${last.line} IS NOT NULL THEN ${last.value(c)} ELSE ${stored(c)} END`],
        ),
      ];
    }),
  ];
  // How it compares with what is stored: its own fields, and each kind.
  const differs = (columns: string[]) =>
    `(${columns.map((c) => `f.${c}`).join(', ')}) IS DISTINCT FROM (${columns.map((c) => `f.${storedName(c)}`).join(', ')})`;
  const storedKind = (kind: (typeof kinds)[number]) => kindPresent(kind, (c) => `f.${storedName(c)}`);
  const outcomes: [name: string, sql: string][] = [
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
  // Only an employment the file writes keeps its whole row; the checks (problems.ts) and
  // the deletes need the others' keys alone, so an unchanged file's rows stay narrow.
  // (The fence under the outcomes keeps `write` computed once, not once per column.)
  const writtenOnly = new Set(employmentColumns.map((c) => c.column).filter((c) => !['id', 'company_id', 'person_id'].includes(c)));
  // The last event of each key is the one no later line of the same key follows (an
  // anti-join on narrow keys, where DISTINCT ON would sort the whole wide rows). The
  // stored employment is reached by key (reach.ts) once, for both the row after the file
  // and the outcomes.
  const lastOf = (events: string, lines: string) =>
    `SELECT * FROM (${events}) ev WHERE NOT EXISTS (SELECT 1 FROM (${lines}) l WHERE l.id = ev.id AND l.line > ev.line)`;
  const employeeDeletes = "FROM import_deletes WHERE record = 'employee'";
  // A kind's events: its records (staged alone, and with their employee's unless those
  // are taken from the employee's row), its deletes, and its employment's deletes (which
  // clear its records without being a record of theirs).
  const lastKind = (kind: (typeof kinds)[number]) => {
    const columns = kindColumns(kind).map((c) => c.column);
    const deletes = `FROM import_deletes WHERE record = '${kind}'`;
    const inline = `FROM import_employees WHERE ${inlineLine(kind)} IS NOT NULL`;
    const events = [
      `SELECT employee_id AS id, line, false AS deleting, true AS explicit, ${columns.join(', ')} FROM ${kindStagingTable[kind]}`,
      `SELECT id::uuid, line, true, true, ${nulls(columns)} ${deletes}`,
      ...(oneRecordEach
        ? []
        : [
            `SELECT id, ${inlineLine(kind)}, false, true, ${columns.join(', ')} ${inline}`,
            `SELECT id::uuid, line, true, false, ${nulls(columns)} ${employeeDeletes}`,
          ]),
    ];
    const lines = [
      `SELECT employee_id AS id, line FROM ${kindStagingTable[kind]}`,
      `SELECT id::uuid, line ${deletes}`,
      ...(oneRecordEach ? [] : [`SELECT id, ${inlineLine(kind)} ${inline}`, `SELECT id::uuid, line ${employeeDeletes}`]),
    ];
    return lastOf(events.join('\n       UNION ALL '), lines.join(' UNION ALL '));
  };
  const employeeRecords = `SELECT id, line, false AS deleting, ${[...ownColumns, ...inlineKindColumns.map((c) => c.column)].join(', ')} FROM import_employees i`;
  /** An employee record's columns as nulls, where an event is not one (a delete, or an employment touched otherwise). */
  const noEmployeeRecord = `${nulls(ownColumns)}, ${inlineKindColumns.map((c) => `NULL::${c.type} AS ${c.column}`).join(', ')}`;
  // The employments the file touches other than by an employee record, each once.
  const touchedOtherwise = [
    ...(staged.deletes.size ? [`SELECT id::uuid FROM import_deletes WHERE record = 'employee' OR record = ANY ($2::text[])`] : []),
    ...(snapshotCompanies.length ? ['SELECT id FROM snapshot'] : []),
    ...kinds.filter((kind) => staged.kindTables.has(kind)).map((kind) => `SELECT employee_id AS id FROM ${kindStagingTable[kind]}`),
  ];
  // A file that restates a large share of the stored employments, each once and deleting
  // nothing (a dump), first sets aside those it leaves as they are (unchanged.ts); the rest
  // are resolved below, reaching their stored rows as their own number calls for.
  const columnNames = [...after.map(([name]) => name), storedName('person_id'), ...outcomes.map(([name]) => name)];
  const dump = oneRecordEach && !staged.deletes.size && !snapshotCompanies.length && reach === 'join';
  const unchanged = dump ? await setAsideUnchanged(tx, columnNames, writtenOnly, kindsAlone) : undefined;
  const reachOfRest = unchanged !== undefined ? reachFor(staged.employeeRows - unchanged, await storedEmployments(tx)) : reach;
  const storedColumns = employmentColumns.map(({ column }) => `e.${column} AS ${storedName(column)}`).join(', ');
  /** The employments, each with its stored row (the stored row is joined first, behind a fence, probed or hashed as chosen). */
  const employments = oneRecordEach
    ? // Its employee record's row, or for one the file touches otherwise, nulls in their place.
      `(SELECT le.*, ${storedColumns} FROM last_employee le ${storedRow(reachOfRest, 'employees', 'e', 'id', 'le.id')}
        ${
          touchedOtherwise.length
            ? `UNION ALL
        SELECT x.id, NULL::integer, NULL::boolean, ${noEmployeeRecord}, ${storedColumns}
          FROM (${touchedOtherwise.join(' UNION ')}) x ${storedRow(reach, 'employees', 'e', 'id', 'x.id')}
         WHERE NOT EXISTS (SELECT 1 FROM import_employees i WHERE i.id = x.id)`
            : ''
        }
        OFFSET 0) le`
    : `(SELECT t.id, ${storedColumns} FROM (${['SELECT DISTINCT id FROM import_employees', ...touchedOtherwise].join(' UNION ')}) t ${storedRow(reach, 'employees', 'e', 'id', 't.id')} OFFSET 0) t
        LEFT JOIN last_employee le ON le.id = t.id`;
  const kindJoins = (oneRecordEach ? kindsAlone : kinds).map((kind) => `LEFT JOIN (${lastKind(kind)}) ${kind} ON ${kind}.id = ${row}.id`);
  // (Merge joins are off for this one statement: the planner cannot know that a key's
  // last event is one row, overestimates each join by orders of magnitude, and would sort
  // the wide rows to merge them; hash joins take them as they come.)
  await tx.query('SET LOCAL enable_mergejoin = off');
  await tx.query(
    `
    CREATE TEMP TABLE import_employments ON COMMIT DROP AS
    WITH last_employee AS (${
      oneRecordEach
        ? `${employeeRecords}${unchanged ? ' WHERE NOT EXISTS (SELECT 1 FROM import_unchanged_employments u WHERE u.id = i.id)' : ''}`
        : lastOf(
            `${employeeRecords}
       UNION ALL SELECT id::uuid, line, true, ${noEmployeeRecord} ${employeeDeletes}`,
            `SELECT id, line FROM import_employees UNION ALL SELECT id::uuid, line ${employeeDeletes}`,
          )
    }),
    -- A snapshot deletes the stored employments of its companies that the file has no employee record for.
    snapshot AS (
      SELECT e.id, e.company_id FROM employees e
       WHERE e.company_id = ANY ($1::text[]) AND NOT EXISTS (SELECT 1 FROM import_employees i WHERE i.id = e.id)
    ),
    after AS (
      SELECT ${after.map(([name, sql]) => `${sql} AS ${name}`).join(',\n             ')},
             ${employmentColumns.map(({ column }) => stored(column)).join(', ')}
        FROM ${employments}
        LEFT JOIN snapshot s ON s.id = ${row}.id
        ${kindJoins.join('\n        ')}
    )
    SELECT ${after.map(([name]) => (writtenOnly.has(name) ? `CASE WHEN o.write THEN o.${name} END AS ${name}` : `o.${name}`)).join(', ')},
           o.${storedName('person_id')}, ${outcomes.map(([name]) => `o.${name}`).join(', ')}
      FROM (SELECT f.*, ${outcomes.map(([name, sql]) => `${sql} AS ${name}`).join(',\n                   ')}
              FROM after f OFFSET 0) o
    ${unchanged ? `UNION ALL SELECT ${columnNames.join(', ')} FROM import_unchanged_employments` : ''}`,
    staged.deletes.size ? [snapshotCompanies, kinds] : [snapshotCompanies],
  );
  await tx.query('SET LOCAL enable_mergejoin = on');
  // The outcomes on their own, narrow: the summary's counts and the writes scan them.
  await tx.query(`
    CREATE TEMP TABLE import_employment_outcomes ON COMMIT DROP AS
    SELECT id, ${outcomes.map(([name]) => name).join(', ')} FROM import_employments`);

  // Credentials: keyed by id when the record gives one, else by token hash; the last record per key wins.
  await tx.query(`
    CREATE TEMP TABLE import_credential_outcomes ON COMMIT DROP AS
    WITH last AS (
      SELECT DISTINCT ON (coalesce(id::text, encode(token_hash, 'hex'))) * FROM import_credentials
       ORDER BY coalesce(id::text, encode(token_hash, 'hex')), line DESC
    ),
    matched AS (
      SELECT l.*, c.id AS stored_id, c.name AS stored_name, c.token_hash AS stored_hash, c.company_set_id AS stored_set,
             (SELECT coalesce(array_agg(cc.company_id ORDER BY cc.company_id), '{}') FROM credential_companies cc WHERE cc.credential_id = c.company_set_id) AS stored_companies
        FROM last l
        LEFT JOIN credentials c ON (l.id IS NOT NULL AND c.id = l.id) OR (l.id IS NULL AND c.token_hash = l.token_hash)
    )
    SELECT line, coalesce(stored_id, id, gen_random_uuid()) AS id, name, token_hash,
           ARRAY(SELECT DISTINCT unnest(companies) ORDER BY 1) AS companies,
           stored_id IS NOT NULL AS stored, stored_set, stored_companies,
           ${outcome('stored_id IS NOT NULL', 'true', '(stored_name, stored_hash, stored_companies) IS DISTINCT FROM (name, token_hash, ARRAY(SELECT DISTINCT unnest(companies) ORDER BY 1))', 'false')} AS outcome
      FROM matched`);
  // Statistics of the columns the checks and writes join and filter on (not of every
  // column: sampling the names and addresses of a whole file's rows costs seconds).
  const analyzed = {
    import_company_outcomes: 'id, deleting, outcome',
    import_person_outcomes: 'id, deleting, outcome',
    import_employments: 'id, company_id, person_id, employee_line, present, stored',
    import_employment_outcomes: 'id, write',
    import_credential_outcomes: 'id, outcome',
  };
  for (const [table, columns] of Object.entries(analyzed)) await tx.query(`ANALYZE ${table} (${columns})`);
}

/**
 * Whether a company / person exists after the file (SQL over an id expression). The
 * stored person is probed by index, one per id checked (OFFSET 0 keeps the planner from
 * hashing every stored person instead, which costs the same for a file of ten records
 * as for one of millions).
 */
export const companyAfter = (id: string) =>
  `(EXISTS (SELECT 1 FROM import_company_outcomes a_o WHERE a_o.id = ${id} AND NOT a_o.deleting)
    OR (EXISTS (SELECT 1 FROM companies a_c WHERE a_c.id = ${id}) AND NOT EXISTS (SELECT 1 FROM import_company_outcomes a_o WHERE a_o.id = ${id} AND a_o.deleting)))`;
export const personAfter = (id: string) =>
  `(EXISTS (SELECT 1 FROM import_person_outcomes a_o WHERE a_o.id = ${id} AND NOT a_o.deleting)
    OR (EXISTS (SELECT 1 FROM persons a_p WHERE a_p.id = ${id} OFFSET 0) AND NOT EXISTS (SELECT 1 FROM import_person_outcomes a_o WHERE a_o.id = ${id} AND a_o.deleting)))`;

/** What the staging tables hold, as the employments' resolve needs to know it. */
interface StagedSources {
  /** The staged employee records. */
  employeeRows: number;
  /** No employment has two employee records in the file. */
  oneEmployeeRecordEach: boolean;
  /** The kinds of records the file deletes ('employee', 'membership', ...). */
  deletes: Set<string>;
  /** The kinds with records staged alone (not with their employee record). */
  kindTables: Set<string>;
}

async function stagedSources(tx: Transaction): Promise<StagedSources> {
  const [row] = await tx.query<{ employee_rows: number; one_each: boolean; deletes: string[]; kind_tables: string[] }>(`
    SELECT coalesce(e.employee_rows, 0)::float8 AS employee_rows, coalesce(e.one_each, true) AS one_each,
           ARRAY(SELECT DISTINCT record FROM import_deletes) AS deletes,
           ARRAY[${kinds.map((kind) => `CASE WHEN EXISTS (SELECT 1 FROM ${kindStagingTable[kind]}) THEN '${kind}' END`).join(', ')}] AS kind_tables
      FROM (SELECT sum(n) AS employee_rows, bool_and(n = 1) AS one_each FROM (SELECT count(*) AS n FROM import_employees GROUP BY id) g) e`);
  return {
    employeeRows: row!.employee_rows,
    oneEmployeeRecordEach: row!.one_each,
    deletes: new Set(row!.deletes),
    kindTables: new Set(row!.kind_tables.filter(Boolean)),
  };
}
