// The checks a record needs no database for, as it streams past: its shape (JSON Schema),
// its phone (parsed to E.164), and what the application computes for storage (folded
// names, external ids in order, a token's hash). A record that passes becomes a row of
// its staging table (db/import/staging.ts) in COPY text; a chunk of records comes out as
// one text per table, with its problems in file order (the first ones, and how many).
// Needs no connection: it runs where the import runs, or in a worker (checkWorker.ts).
import { Ajv, type ValidateFunction } from 'ajv';
import { kindColumns } from '../db/employmentColumns.js';
import { type CopyValue, copyLine } from '../db/engines/copyText.js';
import type { ImportProblem } from '../db/import/problems.js';
import { kindStagingTable, type StagingTable, stagingTables } from '../db/import/staging.js';
import { credentialNameSchema, credentialPurposeProblem } from '../domain/credentials.js';
import { type EmploymentRecordKind, type EmploymentRecordKindName, employmentRecordKindNames, employmentRecordKinds } from '../domain/employment.js';
import { parseFieldList } from '../domain/fieldGroups.js';
import { companyIdPattern, valueAt } from '../domain/fields.js';
import { storedInstant } from '../domain/formats.js';
import { foldName } from '../domain/names.js';
import { toE164 } from '../domain/phone.js';
import { unstorableText } from '../domain/text.js';
import { hashToken } from '../domain/tokens.js';
import { MAX_LINE_BYTES, type NdjsonPiece, parseLine, type Sourced, TOO_LONG } from './read.js';
import { type CredentialRecord, type ImportRecord, recordFormats, recordSchemas, TOKEN_HASH_PATTERN } from './records.js';
import { employeeRow } from './rows.js';
import { invalidUtf8, isUtf8Range } from './utf8.js';

const ajv = new Ajv({ allErrors: true, strict: false, formats: recordFormats });
const validators = Object.fromEntries(Object.entries(recordSchemas).map(([type, schema]) => [type, ajv.compile(schema)])) as Record<
  ImportRecord['type'],
  ValidateFunction
>;

/** Per staging table, the positions of its date-times: each staged in the form the database stores it. */
const instantPositions = Object.fromEntries(
  Object.entries(stagingTables).map(([table, columns]) => [table, columns.flatMap((c, i) => (c.type === 'timestamptz' ? [i] : []))]),
) as Record<StagingTable, number[]>;

/** A checked run of records: COPY text per staging table, and the problems found (lines that are not records among them). */
export interface CheckedChunk {
  rows: Partial<Record<StagingTable, Uint8Array<ArrayBuffer>>>;
  records: number;
  problems: ImportProblem[];
  problemCount: number;
}

const label = (r: any): string =>
  r?.type === 'credential'
    ? `credential ${JSON.stringify(String(r.name ?? ''))}`
    : r?.type === 'delete'
      ? `delete ${r.record ?? ''} ${r.id ?? r.employeeId ?? ''}`.trim()
      : `${r?.type ?? 'record'} ${r?.id ?? r?.employeeId ?? ''}`.trim();

/** The record schemas' patterns in words, for the operator, in place of the regular expression. */
const PATTERN_WORDS: Record<string, string> = {
  [companyIdPattern]: 'must be 1 to 64 of A-Z a-z 0-9 _ -, starting with a letter or digit',
  [credentialNameSchema.pattern]: 'must hold a character other than a space, and no control character (a newline, a tab, an escape)',
  [TOKEN_HASH_PATTERN]: 'must be 64 lower-case hexadecimal digits (a SHA-256)',
};

/** What a required property that is missing is for, where its name alone does not say (a credential's). */
const REQUIRED_WORDS: Record<string, string> = {
  fields: 'the field groups the credential reads: ["name", "email"], or ["all"]',
  purpose: 'one line saying why the credential reads personal data',
};

/** An employee record not staged yet: what follows it may still join its row (staging.ts, inline kinds). */
interface OpenEmployee {
  id: string;
  values: CopyValue[];
  /** Per kind, the record staged with it: its line, then its columns. */
  kinds: Partial<Record<EmploymentRecordKindName, CopyValue[]>>;
}

export class RecordChecker {
  private rows = new Map<StagingTable, RowBytes>();
  private open: OpenEmployee | undefined;
  private pending = 0;
  private records = 0;
  private problems: ImportProblem[] = [];
  private problemCount = 0;
  /** Phones as read → E.164 (or null when unparseable), for the employments of one person that repeat theirs. */
  private readonly phones = new Map<string, string | null>();
  private readonly kindRow: Record<EmploymentRecordKindName, (record: any) => CopyValue[]>;
  /** Per kind, an employee row's inline columns where no record of the kind joined it. */
  private readonly noKindRecord = Object.fromEntries(
    employmentRecordKindNames.map((kind) => [kind, new Array<CopyValue>(1 + kindColumns(kind).length).fill(null)]),
  ) as Record<EmploymentRecordKindName, CopyValue[]>;

  constructor(
    private readonly defaultPhoneRegion: string,
    /** How many problems of a chunk are kept (all are counted). */
    private readonly keep: number,
  ) {
    // A per-employment record fills its kind's staging table.
    this.kindRow = Object.fromEntries(
      employmentRecordKindNames.map((kind) => {
        const definition: EmploymentRecordKind = employmentRecordKinds[kind];
        const getters = kindColumns(kind).map(({ column }) =>
          column === definition.flag ? () => true : (record: any) => valueAt(record, definition.fields.find((f) => f.column === column)!.path) as CopyValue,
        );
        return [kind, (record: any) => getters.map((get) => get(record))];
      }),
    ) as Record<EmploymentRecordKindName, (record: any) => CopyValue[]>;
  }

  /** Characters of COPY text held since the last take(). */
  get pendingLength(): number {
    return this.pending;
  }

  /** Checks the lines of a piece of an NDJSON file (read.ts): each is a record, blank, or a problem of its own. */
  addLines({ bytes: piece, firstLine, firstByte, tooLong }: NdjsonPiece): void {
    if (tooLong) return this.lineProblem(firstLine, TOO_LONG);
    const bytes = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    // Checked as UTF-8 once whole (fast); only a piece that is not is searched line by line.
    const utf8 = isUtf8Range(bytes);
    // Decoded a line at a time: a line of ASCII then stays a one-byte string, which decodes
    // and parses several times faster than its part of a decoded whole (where one
    // character beyond Latin-1 anywhere makes every line two-byte). A newline byte is never
    // part of a multi-byte character, so the lines are the same either way.
    let line = firstLine;
    let start = 0;
    for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
      this.addLine(bytes, start, end, line++, firstByte, utf8);
      start = end + 1;
    }
    this.addLine(bytes, start, bytes.length, line, firstByte, utf8);
  }

  private addLine(bytes: Buffer, start: number, end: number, line: number, firstByte: number, utf8: boolean): void {
    if (end - start > MAX_LINE_BYTES) return this.lineProblem(line, TOO_LONG);
    const bad = utf8 ? undefined : invalidUtf8(bytes, start, end);
    if (bad) return this.lineProblem(line, `not valid UTF-8 at byte offset ${firstByte + bad.at}: ${bad.problem}`);
    const text = bytes.toString('utf8', start, end);
    const sourced = parseLine(text, line);
    // U+0000 and lone surrogates reach a string only through a \u escape.
    if (sourced) this.add(sourced, text.includes('\\u'));
  }

  /** A line that is no record: it says nothing of any record, so it is named by its line alone. */
  private lineProblem(line: number, message: string): void {
    if (this.problems.length < this.keep) this.problems.push({ line, record: '', message });
    this.problemCount++;
  }

  /** Checks one record; `escaped: false` says its JSON text had no \u escape. */
  add(sourced: Sourced, escaped = true): void {
    const { line } = sourced;
    if ('unparsable' in sourced) return this.lineProblem(line, sourced.unparsable);
    this.records++;
    const value = sourced.value as any;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.problem(line, value, 'a record must be a JSON object');
      return;
    }
    // (Own keys only: a type such as "constructor" names no record.)
    const validate = typeof value.type === 'string' && Object.hasOwn(validators, value.type) ? validators[value.type as ImportRecord['type']] : undefined;
    if (!validate) {
      this.problem(line, value, `unknown record type ${JSON.stringify(value?.type)}; expected one of ${Object.keys(validators).join(', ')}`);
      return;
    }
    if (!validate(value)) {
      for (const e of validate.errors ?? [])
        this.problem(
          line,
          value,
          `${e.instancePath || '/'} ${(e.keyword === 'pattern' && PATTERN_WORDS[e.params.pattern]) || e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}${e.keyword === 'required' && REQUIRED_WORDS[e.params.missingProperty] ? `: ${REQUIRED_WORDS[e.params.missingProperty]}` : ''}`,
        );
      return;
    }
    if (escaped) {
      const unstorable = unstorableStrings(value);
      for (const message of unstorable) this.problem(line, value, message);
      if (unstorable.length) return;
    }
    const record = value as ImportRecord;
    switch (record.type) {
      case 'company':
        return this.stage('import_companies', [line, record.id, record.name]);
      case 'person':
        return this.stage('import_persons', [line, record.id, record.createdAt, record.updatedAt]);
      case 'employee': {
        this.closeEmployee();
        const phone = this.phone(record.phone);
        if (!phone)
          return this.problem(
            line,
            value,
            `phone ${JSON.stringify(record.phone)} cannot be parsed as a phone number (default region ${this.defaultPhoneRegion})`,
          );
        this.open = { id: record.id, values: employeeRow(line, record, phone, this.fold), kinds: {} };
        return;
      }
      case 'delete':
        return this.stage('import_deletes', [line, record.record, 'id' in record ? record.id : record.employeeId]);
      case 'credential': {
        const fields = parseFieldList(record.fields);
        if ('problem' in fields) return this.problem(line, value, `/fields ${fields.problem}`);
        // (The schema held the purpose to one line; the rule also refuses the migration's words.)
        const purposeProblem = credentialPurposeProblem(record.purpose);
        if (purposeProblem) return this.problem(line, value, `/purpose ${purposeProblem}`);
        return this.stage('import_credentials', [
          line,
          record.id ?? null,
          record.name,
          `\\x${credentialHash(record).toString('hex')}`,
          `{${record.companies.join(',')}}`,
          `{${fields.fields.join(',')}}`,
          record.purpose,
        ]);
      }
      default: {
        const columns = this.kindRow[record.type](record);
        const open = this.open;
        // The first of its kind after its employee record joins that record's row; any
        // other is staged alone, and resolve.ts orders them all by line.
        if (open?.id === record.employeeId && !open.kinds[record.type]) open.kinds[record.type] = [line, ...columns];
        else this.stage(kindStagingTable[record.type], [line, record.employeeId, ...columns]);
        return;
      }
    }
  }

  /** Stages the open employee record's row, with the records that joined it. */
  private closeEmployee(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    const values = open.values;
    for (const kind of employmentRecordKindNames) values.push(...(open.kinds[kind] ?? this.noKindRecord[kind]));
    this.stage('import_employees', values);
  }

  /** What was checked since the last take(), and a fresh start. */
  take(): CheckedChunk {
    this.closeEmployee();
    const rows: CheckedChunk['rows'] = {};
    for (const [table, bytes] of this.rows) rows[table] = bytes.written();
    const chunk: CheckedChunk = {
      rows,
      records: this.records,
      problems: this.problems,
      problemCount: this.problemCount,
    };
    this.rows = new Map();
    this.pending = this.records = this.problemCount = 0;
    this.problems = [];
    return chunk;
  }

  private problem(line: number, value: unknown, message: string): void {
    if (this.problems.length < this.keep) this.problems.push({ line, record: label(value), message });
    this.problemCount++;
  }

  private phone(text: string): string | null {
    let phone = this.phones.get(text);
    if (phone === undefined) {
      if (this.phones.size >= 10_000) this.phones.clear();
      this.phones.set(text, (phone = toE164(text, this.defaultPhoneRegion) ?? null));
    }
    return phone;
  }

  /** Names repeat across a file (the distinct ones are few beside the records): folded once each. */
  private readonly folded = new Map<string, string>();
  private readonly fold = (name: string): string => {
    let folded = this.folded.get(name);
    if (folded === undefined) {
      if (this.folded.size >= 50_000) this.folded.clear();
      this.folded.set(name, (folded = foldName(name)));
    }
    return folded;
  };

  private stage(table: StagingTable, values: CopyValue[]): void {
    for (const i of instantPositions[table]) if (typeof values[i] === 'string') values[i] = storedInstant(values[i]);
    let bytes = this.rows.get(table);
    if (!bytes) this.rows.set(table, (bytes = new RowBytes()));
    const text = copyLine(values);
    bytes.write(text);
    this.pending += text.length;
  }
}

/** COPY text of one table, written as UTF-8 as it comes (joining the lines and encoding them after cost more). */
class RowBytes {
  private buffer = Buffer.allocUnsafeSlow(1 << 16);
  private length = 0;
  write(text: string): void {
    // (At most 3 bytes per UTF-16 unit.)
    if (this.length + text.length * 3 > this.buffer.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.length + text.length * 3));
      this.buffer.copy(larger, 0, 0, this.length);
      this.buffer = larger;
    }
    this.length += this.buffer.write(text, this.length);
  }
  /** The bytes written, over a buffer of their own (that a worker can hand over whole). */
  written(): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.buffer.buffer as ArrayBuffer, this.buffer.byteOffset, this.length);
  }
}

/** Why the strings of a record that no database text or JSON can hold are refused, by path. */
function unstorableStrings(value: unknown, path = ''): string[] {
  if (typeof value === 'string') {
    const problem = unstorableText(value);
    return problem ? [`${path} ${problem}`] : [];
  }
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => unstorableStrings(item, `${path}/${key}`));
}

function credentialHash(c: CredentialRecord): Buffer {
  return c.tokenHash ? Buffer.from(c.tokenHash, 'hex') : hashToken(c.token!);
}
