// What a staged file comes to, before anything is written: for every record it touches,
// the state after the file (records apply in file order, a later record for the same key
// wins, a whole-company snapshot deletes the company's employments the file lacks) beside
// the state stored now, and the outcome (added, changed, unchanged, deleted, already
// absent). problems.ts checks the state after; apply.ts writes it. The employments are
// planned (resolvePlan.ts) and then rendered (resolveSql.ts).

import { employmentRecordKindNames as kinds } from '../../domain/employment.js';
import type { Transaction } from '../engines/database.js';
import { type Reach, storedEmployments, storedRow } from './reach.js';
import { afterSetAside, kindsAlone, resolvePlan, type StagedSources } from './resolvePlan.js';
import { employmentsColumnNames, employmentsStatement, outcome, outcomeColumns, writtenOnly } from './resolveSql.js';
import { kindStagingTable } from './staging.js';
import { setAsideUnchanged } from './unchanged.js';

/**
 * Resolves the staged file into the outcome tables (import_company_outcomes,
 * import_person_outcomes, import_employments and import_employment_outcomes,
 * import_credential_outcomes). The employments follow their plan (resolvePlan.ts), made
 * from what the staging tables hold.
 */
export async function resolveImport(tx: Transaction, snapshotCompanies: readonly string[], reach: Reach): Promise<void> {
  await tx.query(COMPANY_OUTCOMES);
  await tx.query(personOutcomes(reach));
  const staged = await stagedSources(tx);
  let plan = resolvePlan(staged, snapshotCompanies, reach);
  if (plan.fullExport) {
    const unchanged = await setAsideUnchanged(tx, employmentsColumnNames(plan), writtenOnly, kindsAlone(plan));
    plan = afterSetAside(plan, staged, unchanged, await storedEmployments(tx));
  }
  // (Merge joins are off for this one statement: the planner cannot know that a key's
  // last event is one row, overestimates each join by orders of magnitude, and would sort
  // the wide rows to merge them; hash joins take them as they come.)
  await tx.query('SET LOCAL enable_mergejoin = off');
  const employments = employmentsStatement(plan);
  await tx.query(employments.sql, employments.params);
  await tx.query('SET LOCAL enable_mergejoin = on');
  // The outcomes on their own, narrow: the summary's counts and the writes scan them.
  await tx.query(`
    CREATE TEMP TABLE import_employment_outcomes ON COMMIT DROP AS
    SELECT id, ${outcomeColumns(kinds)
      .map(([name]) => name)
      .join(', ')} FROM import_employments`);
  await tx.query(CREDENTIAL_OUTCOMES);
  // Statistics of the columns the checks and writes join and filter on (not of every
  // column: sampling the names and addresses of a whole file's rows costs seconds).
  for (const [table, columns] of Object.entries(ANALYZED)) await tx.query(`ANALYZE ${table} (${columns})`);
}

/** Companies: the last record for each id. */
const COMPANY_OUTCOMES = `
    CREATE TEMP TABLE import_company_outcomes ON COMMIT DROP AS
    WITH events AS (
      SELECT id, line, false AS deleting, name FROM import_companies
      UNION ALL SELECT id, line, true, NULL FROM import_deletes WHERE record = 'company'
    ), last AS (SELECT DISTINCT ON (id) * FROM events ORDER BY id, line DESC)
    SELECT l.id, l.line, l.deleting, l.name, c.id IS NOT NULL AS stored,
           ${outcome('c.id IS NOT NULL', 'NOT l.deleting', 'c.name IS DISTINCT FROM l.name', 'l.deleting')} AS outcome
      FROM last l LEFT JOIN companies c ON c.id = l.id`;

/** Persons: the last record for each id, the stored person reached as chosen. */
const personOutcomes = (reach: Reach) => `
    CREATE TEMP TABLE import_person_outcomes ON COMMIT DROP AS
    WITH events AS (
      SELECT id, line, false AS deleting, created_at, updated_at FROM import_persons
      UNION ALL SELECT id::uuid, line, true, NULL, NULL FROM import_deletes WHERE record = 'person'
    ), last AS (SELECT DISTINCT ON (id) * FROM events ORDER BY id, line DESC)
    SELECT l.id, l.line, l.deleting, l.created_at, l.updated_at, p.id IS NOT NULL AS stored,
           ${outcome('p.id IS NOT NULL', 'NOT l.deleting', '(p.created_at, p.updated_at) IS DISTINCT FROM (l.created_at, l.updated_at)', 'l.deleting')} AS outcome
      FROM last l ${storedRow(reach, 'persons', 'p', 'id', 'l.id')}`;

/** Credentials: keyed by id when the record gives one, else by token hash; the last record per key wins. */
const CREDENTIAL_OUTCOMES = `
    CREATE TEMP TABLE import_credential_outcomes ON COMMIT DROP AS
    WITH last AS (
      SELECT DISTINCT ON (coalesce(id::text, encode(token_hash, 'hex'))) * FROM import_credentials
       ORDER BY coalesce(id::text, encode(token_hash, 'hex')), line DESC
    ),
    matched AS (
      SELECT l.*, c.id AS stored_id, c.name AS stored_name, c.token_hash AS stored_hash, c.company_set_id AS stored_set,
             c.fields AS stored_fields, c.purpose AS stored_purpose,
             (SELECT coalesce(array_agg(cc.company_id ORDER BY cc.company_id), '{}') FROM credential_companies cc WHERE cc.credential_id = c.company_set_id) AS stored_companies
        FROM last l
        LEFT JOIN credentials c ON (l.id IS NOT NULL AND c.id = l.id) OR (l.id IS NULL AND c.token_hash = l.token_hash)
    )
    SELECT line, coalesce(stored_id, id, gen_random_uuid()) AS id, name, token_hash,
           ARRAY(SELECT DISTINCT unnest(companies) ORDER BY 1) AS companies, fields, purpose,
           stored_id IS NOT NULL AS stored, stored_set, stored_companies,
           ${outcome('stored_id IS NOT NULL', 'true', '(stored_name, stored_hash, stored_companies, stored_fields, stored_purpose) IS DISTINCT FROM (name, token_hash, ARRAY(SELECT DISTINCT unnest(companies) ORDER BY 1), fields, purpose)', 'false')} AS outcome
      FROM matched`;

const ANALYZED = {
  import_company_outcomes: 'id, deleting, outcome',
  import_person_outcomes: 'id, deleting, outcome',
  import_employments: 'id, company_id, person_id, employee_line, present, stored',
  import_employment_outcomes: 'id, write',
  import_credential_outcomes: 'id, outcome',
};

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

/** What the staging tables hold (resolvePlan.ts StagedSources). */
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
