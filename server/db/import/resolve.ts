// What a staged file comes to, before anything is written: for every record it touches,
// the state after the file (records apply in file order, a later record for the same key
// wins, a whole-company snapshot deletes the company's employments the file lacks) beside
// the state stored now, and the outcome (added, changed, unchanged, deleted, already
// absent). problems.ts checks the state after; apply.ts writes it.

import type { Transaction } from '../database.js';
import { employeeFields, employmentColumns, employmentRecordKindNames, foldedNameColumns, kindColumns, kindPresent } from '../employmentColumns.js';
import { timed } from './apply.js';

/** An employment's own columns (from its employee record), besides its id. */
const ownColumns = [...employeeFields.map((f) => f.column), ...foldedNameColumns.map((f) => f.column)].filter((c) => c !== 'id');
const kinds = employmentRecordKindNames;

/** `outcome` from whether the record was stored, is there after, and whether it differs. */
const outcome = (stored: string, after: string, differs: string, deleting: string) => `
  CASE WHEN NOT (${after}) THEN CASE WHEN ${stored} THEN 'deleted' WHEN ${deleting} THEN 'already_absent' END
       WHEN NOT (${stored}) THEN 'added'
       WHEN ${differs} THEN 'changed' ELSE 'unchanged' END`;

export async function resolveImport(given: Transaction, snapshotCompanies: readonly string[]): Promise<void> {
  const tx = timed(given);
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
      FROM last l LEFT JOIN persons p ON p.id = l.id`);

  // Employments. Each one the file touches (an employee record or delete, one of its
  // per-employment records or their deletes, or a snapshot of its company) comes out as
  // its whole row after the file: the employee's fields from its last record, else as
  // stored; each per-employment kind from its last record or delete (an employee's delete
  // clears them), else as stored.
  const kindEvents = kinds.map((kind) => ({ kind, columns: kindColumns(kind).map((c) => c.column) }));
  const allKindColumns = kindEvents.flatMap((k) => k.columns);
  const nulls = (columns: string[]) => columns.map((c) => `NULL::${employmentColumns.find((x) => x.column === c)!.type} AS ${c}`).join(', ');
  await tx.query(
    `
    CREATE TEMP TABLE import_employments ON COMMIT DROP AS
    WITH employee_events AS (
      SELECT id, line, false AS deleting, ${ownColumns.join(', ')} FROM import_employees
      UNION ALL
      SELECT id::uuid, line, true, ${nulls(ownColumns)} FROM import_deletes WHERE record = 'employee'
    ),
    last_employee AS (SELECT DISTINCT ON (id) * FROM employee_events ORDER BY id, line DESC),
    -- A snapshot deletes the stored employments of its companies that the file has no employee record for.
    snapshot AS (
      SELECT e.id, e.company_id FROM employees e
       WHERE e.company_id = ANY ($1::text[]) AND NOT EXISTS (SELECT 1 FROM import_employees i WHERE i.id = e.id)
    ),
    kind_events AS (
      SELECT employee_id AS id, kind, line, false AS deleting, true AS explicit, ${allKindColumns.join(', ')} FROM import_employment_records
      UNION ALL
      SELECT id::uuid, record, line, true, true, ${nulls(allKindColumns)} FROM import_deletes WHERE record = ANY ($2::text[])
      UNION ALL
      -- Deleting an employee clears its records, without being a record of theirs.
      SELECT d.id::uuid, k.kind, d.line, true, false, ${nulls(allKindColumns)} FROM import_deletes d CROSS JOIN unnest($2::text[]) AS k(kind) WHERE d.record = 'employee'
    ),
    last_kind AS (SELECT DISTINCT ON (id, kind) * FROM kind_events ORDER BY id, kind, line DESC),
    kinds_after AS (
      SELECT id,
             ${kindEvents
               .map(({ kind, columns }) =>
                 [
                   `max(line) FILTER (WHERE kind = '${kind}') AS ${kind}_line`,
                   `bool_or(deleting) FILTER (WHERE kind = '${kind}') AS ${kind}_deleting`,
                   `bool_or(explicit) FILTER (WHERE kind = '${kind}') AS ${kind}_explicit`,
                   ...columns.map((c) =>
                     employmentColumns.find((x) => x.column === c)!.type === 'boolean'
                       ? `bool_or(${c}) FILTER (WHERE kind = '${kind}') AS ${c}`
                       : `max(${c}) FILTER (WHERE kind = '${kind}') AS ${c}`,
                   ),
                 ].join(',\n             '),
               )
               .join(',\n             ')}
        FROM last_kind GROUP BY id
    ),
    touched AS (SELECT id FROM last_employee UNION SELECT id FROM snapshot UNION SELECT id FROM kinds_after)
    SELECT t.id,
           le.line AS employee_line,
           coalesce(le.deleting, false) OR (s.id IS NOT NULL AND le.id IS NULL) AS employee_deleting,
           s.company_id AS snapshot_company,
           e.id IS NOT NULL AS stored,
           e.person_id AS stored_person_id,
           CASE WHEN le.id IS NOT NULL THEN NOT le.deleting WHEN s.id IS NOT NULL THEN false ELSE e.id IS NOT NULL END AS present,
           ${ownColumns.map((c) => `CASE WHEN le.id IS NOT NULL THEN le.${c} ELSE e.${c} END AS ${c}`).join(',\n           ')},
           ${kindEvents
             .map(({ kind, columns }) =>
               [
                 `k.${kind}_line`,
                 `k.${kind}_deleting`,
                 `k.${kind}_explicit`,
                 // (A flag is false, never null, where there is no record.)
                 ...columns.map((c) =>
                   employmentColumns.find((x) => x.column === c)!.type === 'boolean'
                     ? `coalesce(CASE WHEN k.${kind}_line IS NOT NULL THEN k.${c} ELSE e.${c} END, false) AS ${c}`
                     : `CASE WHEN k.${kind}_line IS NOT NULL THEN k.${c} ELSE e.${c} END AS ${c}`,
                 ),
               ].join(', '),
             )
             .join(',\n           ')}
      FROM touched t
      LEFT JOIN last_employee le ON le.id = t.id
      LEFT JOIN snapshot s ON s.id = t.id
      LEFT JOIN kinds_after k ON k.id = t.id
      -- The stored employment is probed by its key, one per touched id (OFFSET 0 keeps the
      -- planner from reading every stored employment in key order instead, which a snapshot's
      -- estimate of its company's rows tips it into).
      LEFT JOIN LATERAL (SELECT * FROM employees stored WHERE stored.id = t.id OFFSET 0) e ON true`,
    [snapshotCompanies, kinds],
  );
  // How each compares with what is stored: its own fields, and each kind.
  const differs = (columns: string[]) => `(${columns.map((c) => `f.${c}`).join(', ')}) IS DISTINCT FROM (${columns.map((c) => `e.${c}`).join(', ')})`;
  const present = (kind: (typeof kinds)[number], alias: string) => kindPresent(kind, alias);
  await tx.query(`
    CREATE TEMP TABLE import_employment_outcomes ON COMMIT DROP AS
    SELECT f.id,
           CASE WHEN f.employee_line IS NOT NULL OR f.snapshot_company IS NOT NULL
                THEN ${outcome('f.stored', 'f.present', differs(ownColumns), 'f.employee_deleting')} END AS employee,
           ${kinds
             .map(
               // Counted where the file has a record of this kind for the employment, or where
               // one stored goes with its employment.
               (kind) => `CASE WHEN f.${kind}_explicit OR (f.stored AND ${present(kind, 'e')} AND (f.${kind}_line IS NOT NULL OR NOT f.present))
                THEN ${outcome(`(f.stored AND ${present(kind, 'e')})`, `(f.present AND ${present(kind, 'f')})`, differs(kindColumns(kind).map((c) => c.column)), `coalesce(f.${kind}_deleting AND f.${kind}_explicit, false)`)} END AS ${kind}`,
             )
             .join(',\n           ')},
           f.present AND (NOT f.stored OR ${differs(employmentColumns.map((c) => c.column).filter((c) => c !== 'id'))}) AS write
      FROM import_employments f LEFT JOIN employees e ON e.id = f.id`);

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
