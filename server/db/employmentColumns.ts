// An employment's columns as the SQL that writes and reads them needs them, from the
// employment's one declaration (server/domain/employment.ts): every column in one fixed
// order (the import's write statement and the bench's COPY), each per-employment kind's
// columns, and whether a row holds a record of a kind.
import {
  type EmploymentRecordKind,
  type EmploymentRecordKindName,
  employeeFields,
  employmentRecordKindNames,
  employmentRecordKinds,
} from '../domain/employment.js';
import type { SqlType } from '../domain/fields.js';

/** The folded copies of fields (names.ts foldName), which the application writes beside them (server/db/derived/README.md). */
export const foldedColumns: { column: string; of: string }[] = employeeFields.flatMap((f) => (f.folded ? [{ column: f.folded, of: f.column }] : []));

/** A kind's columns: its flag (if any) and its fields'. */
export function kindColumns(kind: EmploymentRecordKindName): { column: string; type: SqlType }[] {
  const definition: EmploymentRecordKind = employmentRecordKinds[kind];
  return [...(definition.flag ? [{ column: definition.flag, type: 'boolean' as const }] : []), ...definition.fields];
}

/** Whether an employment row holds a record of this kind (SQL over its columns, each as `column` names it). */
export function kindPresent(kind: EmploymentRecordKindName, column: (name: string) => string): string {
  const definition: EmploymentRecordKind = employmentRecordKinds[kind];
  return definition.flag ? column(definition.flag) : `${column(definition.fields[0]!.column)} IS NOT NULL`;
}

/** Every column an employment is written with, in one fixed order (the write statement's and the COPY's). */
export const employmentColumns: { column: string; type: SqlType }[] = [
  ...employeeFields,
  ...foldedColumns.map(({ column }) => ({ column, type: 'text' as const })),
  ...employmentRecordKindNames.flatMap(kindColumns),
];

/** An employment column's SQL type. */
export function columnType(column: string): SqlType {
  return employmentColumns.find((c) => c.column === column)!.type;
}
