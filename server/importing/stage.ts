// The checks a record needs no database for, as it streams past: its shape (JSON Schema),
// its phone (parsed to E.164), and what the application computes for storage (folded
// names, external ids in order, a token's hash). A record that passes becomes a row of
// its staging table (db/import/staging.ts), buffered and copied in chunks, so memory
// stays flat whatever the file's size. Problems are counted, the first ones kept.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { type CopyValue, copyLine } from '../db/copyText.js';
import type { Transaction } from '../db/database.js';
import {
  type EmploymentRecordKind,
  type EmploymentRecordKindName,
  employeeFields,
  employmentRecordKindNames,
  employmentRecordKinds,
  kindColumns,
  valueAt,
} from '../db/employmentColumns.js';
import type { ImportProblem } from '../db/import/problems.js';
import { copyIntoStaging, type StagingTable, stagingTables } from '../db/import/staging.js';
import { foldName } from '../domain/names.js';
import { toE164 } from '../domain/phone.js';
import { hashToken } from '../domain/tokens.js';
import type { Sourced } from './read.js';
import { type CredentialRecord, type EmployeeRecord, type EmploymentRecord, type ImportRecord, recordSchemas } from './records.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
const validators = Object.fromEntries(Object.entries(recordSchemas).map(([type, schema]) => [type, ajv.compile(schema)])) as Record<
  ImportRecord['type'],
  ValidateFunction
>;

/** Bytes of COPY text buffered per staging table before it is copied. */
const CHUNK_BYTES = 1 << 20;

/** The first problems of a run, and how many there were in all. */
export class ProblemList {
  readonly first: ImportProblem[] = [];
  count = 0;
  constructor(private readonly keep: number) {}
  add(problem: ImportProblem): void {
    this.count++;
    if (this.first.length < this.keep) this.first.push(problem);
  }
}

const label = (r: any): string =>
  r?.type === 'credential'
    ? `credential "${r.name}"`
    : r?.type === 'delete'
      ? `delete ${r.record ?? ''} ${r.id ?? r.employeeId ?? ''}`.trim()
      : `${r?.type ?? 'record'} ${r?.id ?? r?.employeeId ?? ''}`.trim();

export class Stager {
  readonly problems: ProblemList;
  readonly unparsable: ProblemList;
  records = 0;
  private readonly buffers = new Map<StagingTable, { lines: string[]; bytes: number }>();
  /** The copy under way: the next records are checked while the database takes it. */
  private copying: Promise<void> = Promise.resolve();
  /** Phones as read → E.164 (or null when unparseable), for the employments of one person that repeat theirs. */
  private readonly phones = new Map<string, string | null>();
  private readonly kindRow: Record<EmploymentRecordKindName, (record: any) => CopyValue[]>;

  constructor(
    private readonly tx: Transaction,
    private readonly defaultPhoneRegion: string,
    keep: number,
  ) {
    this.problems = new ProblemList(keep);
    this.unparsable = new ProblemList(keep);
    // A per-employment record fills its own kind's columns of the shared staging table.
    const columns = employmentRecordKindNames.flatMap(kindColumns).map((c) => c.column);
    this.kindRow = Object.fromEntries(
      employmentRecordKindNames.map((kind) => {
        const definition = employmentRecordKinds[kind];
        const own = new Map<string, (record: any) => CopyValue>(
          definition.fields.map((f) => [f.column, (record: any) => valueAt(record, f.path) as CopyValue]),
        );
        if ('flag' in definition) own.set(definition.flag, () => true);
        return [kind, (record: any) => columns.map((column) => own.get(column)?.(record) ?? null)];
      }),
    ) as Record<EmploymentRecordKindName, (record: any) => CopyValue[]>;
  }

  /** Checks and buffers a batch of records, then copies the buffers that are full. */
  async addBatch(batch: readonly Sourced[]): Promise<void> {
    for (const sourced of batch) this.add(sourced);
    for (const [table, buffer] of this.buffers) if (buffer.bytes >= CHUNK_BYTES) await this.copy(table);
  }

  private add(sourced: Sourced): void {
    const { line } = sourced;
    if ('unparsable' in sourced) {
      this.unparsable.add({ line, record: 'record', message: sourced.unparsable });
      return;
    }
    this.records++;
    const value = sourced.value as any;
    const problem = (message: string) => this.problems.add({ line, record: label(value), message });
    const validate = validators[value?.type as ImportRecord['type']];
    if (!validate) {
      problem(`unknown record type ${JSON.stringify(value?.type)}; expected one of ${Object.keys(validators).join(', ')}`);
      return;
    }
    if (!validate(value)) {
      for (const e of validate.errors ?? [])
        problem(`${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
      return;
    }
    const record = value as ImportRecord;
    switch (record.type) {
      case 'company':
        return this.stage('import_companies', [line, record.id, record.name]);
      case 'person':
        return this.stage('import_persons', [line, record.id, record.createdAt, record.updatedAt]);
      case 'employee': {
        const phone = this.phone(record.phone);
        if (!phone) return problem(`phone ${JSON.stringify(record.phone)} cannot be parsed as a phone number (default region ${this.defaultPhoneRegion})`);
        return this.stage('import_employees', employeeRow(line, record, phone));
      }
      case 'delete':
        return this.stage('import_deletes', [line, record.record, 'id' in record ? record.id : record.employeeId]);
      case 'credential':
        return this.stage('import_credentials', [
          line,
          record.id ?? null,
          record.name,
          `\\x${credentialHash(record).toString('hex')}`,
          `{${record.companies.join(',')}}`,
        ]);
      default:
        return this.stage('import_employment_records', [line, record.type, record.employeeId, ...this.kindRow[record.type](record)]);
    }
  }

  /** Copies what is still buffered, and waits for every copy. */
  async flush(): Promise<void> {
    for (const table of this.buffers.keys()) await this.copy(table);
    await this.copying;
  }

  private phone(text: string): string | null {
    let phone = this.phones.get(text);
    if (phone === undefined) {
      if (this.phones.size >= 10_000) this.phones.clear();
      this.phones.set(text, (phone = toE164(text, this.defaultPhoneRegion) ?? null));
    }
    return phone;
  }

  private stage(table: StagingTable, values: CopyValue[]): void {
    let buffer = this.buffers.get(table);
    if (!buffer) this.buffers.set(table, (buffer = { lines: [], bytes: 0 }));
    const text = copyLine(values);
    buffer.lines.push(text);
    buffer.bytes += text.length;
  }

  private async copy(table: StagingTable): Promise<void> {
    const buffer = this.buffers.get(table);
    if (!buffer?.lines.length) return;
    const text = buffer.lines.join('');
    buffer.lines = [];
    buffer.bytes = 0;
    // One copy at a time on the connection; this one starts when the one before ends,
    // and is waited for only by the next (or by flush).
    await this.copying;
    this.copying = copyIntoStaging(this.tx, table, text);
    // (Its failure surfaces where it is waited for, not as an unhandled rejection before.)
    this.copying.catch(() => {});
  }
}

/** An employee record's staging row: its fields as stored (its phone in E.164), then its folded names. */
export function employeeRow(line: number, record: EmployeeRecord, phone: string = record.phone): CopyValue[] {
  const values: CopyValue[] = [line];
  for (const f of employeeFields) {
    const value = f.column === 'phone' ? phone : valueAt(record, f.path);
    values.push(f.column === 'external_ids' ? JSON.stringify(orderedExternalIds(value as EmployeeRecord['externalIds'])) : (value as CopyValue));
  }
  values.push(foldName(record.firstName), foldName(record.lastName));
  if (values.length !== stagingTables.import_employees.length) throw new Error('employee staging row out of step with its table');
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

function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d) return d;
  }
  return x.length - y.length;
}

function credentialHash(c: CredentialRecord): Buffer {
  return c.tokenHash ? Buffer.from(c.tokenHash, 'hex') : hashToken(c.token!);
}
