// The staging and stored rows of an employment as the import computes them: its fields as
// stored (phone in E.164, external ids distinct and in order) and its folded names.
import type { CopyValue } from '../db/engines/copyText.js';
import { employeeRecordColumns } from '../db/import/staging.js';
import { type EmploymentRecordKind, employeeFields, employmentRecordKindNames, employmentRecordKinds } from '../domain/employment.js';
import { valueAt } from '../domain/fields.js';
import { foldName } from '../domain/names.js';
import type { EmployeeRecord, EmploymentRecord } from './records.js';

/** The fields stored with a folded copy, in employmentColumns' order of those copies. */
const foldedFields = employeeFields.filter((f) => f.folded !== undefined);

/** An employee record's own staging row: its fields as stored (its phone in E.164), then its folded copies (the names). */
export function employeeRow(line: number, record: EmployeeRecord, phone: string = record.phone, fold: (name: string) => string = foldName): CopyValue[] {
  const values: CopyValue[] = [line];
  for (const f of employeeFields) {
    const value = f.column === 'phone' ? phone : valueAt(record, f.path);
    values.push(f.column === 'external_ids' ? JSON.stringify(orderedExternalIds(value as EmployeeRecord['externalIds'])) : (value as CopyValue));
  }
  for (const f of foldedFields) {
    const value = valueAt(record, f.path);
    values.push(typeof value === 'string' ? fold(value) : null);
  }
  if (values.length !== employeeRecordColumns.length) throw new Error('employee staging row out of step with its table');
  return values;
}

/**
 * An employment's whole stored row, in `employmentColumns` order then its person's times:
 * what the import writes for these records (the bench's bulk loader copies it as is).
 */
export function storedEmploymentRow(
  record: EmployeeRecord,
  records: readonly EmploymentRecord[],
  person: { createdAt: string; updatedAt: string } | null,
): CopyValue[] {
  const values = employeeRow(0, record).slice(1);
  for (const kind of employmentRecordKindNames) {
    const definition: EmploymentRecordKind = employmentRecordKinds[kind];
    const found = records.find((r) => r.type === kind);
    if (definition.flag) values.push(found !== undefined);
    for (const f of definition.fields) values.push(found ? (valueAt(found, f.path) as CopyValue) : null);
  }
  values.push(person?.createdAt ?? null, person?.updatedAt ?? null);
  return values;
}

/** Distinct, ordered by system then system_id in code point order (as stored). */
export function orderedExternalIds(ids: EmployeeRecord['externalIds']): EmployeeRecord['externalIds'] {
  const seen = new Map<string, EmployeeRecord['externalIds'][number]>();
  for (const { system, system_id } of ids) seen.set(`${system}\u0000${system_id}`, { system, system_id });
  return [...seen.values()].sort((a, b) => byCodePoint(a.system, b.system) || byCodePoint(a.system_id, b.system_id));
}

const SURROGATE = /[\ud800-\udfff]/;

export function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  // Without surrogates, UTF-16 order is code point order.
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : 1;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d) return d;
  }
  return x.length - y.length;
}
