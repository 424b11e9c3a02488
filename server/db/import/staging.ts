// The staging tables an import copies its records into, inside its own transaction
// (temporary, dropped at commit): one per kind of record (each per-employment kind its
// own, holding only its columns, for those not staged with their employee record), each
// row with the line it came from. Everything after the copy (resolving the file's order,
// checking, applying) is set-based SQL over these tables (resolve.ts, problems.ts, apply.ts).

import { type EmploymentRecordKindName, employeeFields, employmentRecordKindNames } from '../../domain/employment.js';
import type { SqlType } from '../../domain/fields.js';
import { foldedColumns, kindColumns } from '../employmentColumns.js';
import type { Transaction } from '../engines/database.js';

type Columns = readonly { column: string; type: SqlType | 'integer' | 'bytea' | 'text[]' }[];

const line = { column: 'line', type: 'integer' } as const;

type KindStagingTable = `import_${Lowercase<EmploymentRecordKindName>}_records`;
const tableOf = (kind: EmploymentRecordKindName) => `import_${kind.toLowerCase()}_records` as KindStagingTable;
/** Each kind of per-employment record's staging table (membership → import_membership_records, ...). */
export const kindStagingTable = Object.fromEntries(employmentRecordKindNames.map((kind) => [kind, tableOf(kind)])) as Record<
  EmploymentRecordKindName,
  KindStagingTable
>;
const kindStagingTables = Object.fromEntries(
  employmentRecordKindNames.map((kind) => [kindStagingTable[kind], [line, { column: 'employee_id', type: 'uuid' }, ...kindColumns(kind)]]),
) as Record<string, Columns> as Record<KindStagingTable, Columns>;

/** An employee record's own staged columns: its line, its fields, their folded copies. */
export const employeeRecordColumns: Columns = [line, ...employeeFields, ...foldedColumns.map(({ column }) => ({ column, type: 'text' as const }))];

/**
 * Beside them, the per-employment records that came right after it in the file, one of
 * each kind at most, each with its own line (`membership_line`, then its columns; null
 * where none came). A file that lists each employment's records together (a whole dump)
 * then stages, and resolves, one row per employment (check.ts, resolve.ts).
 */
export const inlineKindColumns: Columns = employmentRecordKindNames.flatMap((kind) => [
  { column: inlineLine(kind), type: 'integer' as const },
  ...kindColumns(kind),
]);

/** The column of an employee's staged row that holds the line of its inline record of `kind`. */
export function inlineLine(kind: EmploymentRecordKindName): string {
  return `${kind}_line`;
}

/** Staging table → its columns, in COPY order. */
export const stagingTables = {
  import_companies: [line, { column: 'id', type: 'text' }, { column: 'name', type: 'text' }],
  import_persons: [line, { column: 'id', type: 'uuid' }, { column: 'created_at', type: 'timestamptz' }, { column: 'updated_at', type: 'timestamptz' }],
  import_employees: [...employeeRecordColumns, ...inlineKindColumns],
  ...kindStagingTables,
  // `id` is the record's id, or its employeeId for a per-employment record.
  import_deletes: [line, { column: 'record', type: 'text' }, { column: 'id', type: 'text' }],
  import_credentials: [
    line,
    { column: 'id', type: 'uuid' },
    { column: 'name', type: 'text' },
    { column: 'token_hash', type: 'bytea' },
    { column: 'companies', type: 'text[]' },
    // The groups in fieldGroups' order, `all` expanded (check.ts).
    { column: 'fields', type: 'text[]' },
    { column: 'purpose', type: 'text' },
  ],
} satisfies Record<string, Columns>;

export type StagingTable = keyof typeof stagingTables;

export async function createStagingTables(tx: Transaction): Promise<void> {
  for (const [table, columns] of Object.entries(stagingTables) as [StagingTable, Columns][]) {
    await tx.query(`CREATE TEMP TABLE ${table} (${columns.map((c) => `${c.column} ${c.type}`).join(', ')}) ON COMMIT DROP`);
  }
}

/** COPY rows (COPY text format) into a staging table. */
export async function copyIntoStaging(tx: Transaction, table: StagingTable, text: string | Uint8Array<ArrayBuffer>): Promise<void> {
  await tx.copyIn(
    table,
    stagingTables[table].map((c) => c.column),
    text,
  );
}

/** After the copy: statistics, so the set-based statements that follow are planned for the sizes staged. */
export async function analyzeStaging(tx: Transaction): Promise<void> {
  // (Of the columns the resolve groups and joins on: not the names and addresses.)
  const keys: Partial<Record<StagingTable, string>> = {
    import_companies: 'id',
    import_persons: 'id',
    import_employees: 'id, line',
    import_deletes: 'record, id',
    import_credentials: 'id, token_hash',
  };
  // (Each per-employment kind's table by its employment and line.)
  for (const table of Object.keys(stagingTables) as StagingTable[]) await tx.query(`ANALYZE ${table} (${keys[table] ?? 'employee_id, line'})`);
}
