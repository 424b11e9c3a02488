// The table of an employment's record fields in server/importing/FORMAT.md, written from
// the import's record schemas (server/importing/records.ts), which come from the
// employment's declaration (server/domain/employment.ts): a field added there is listed
// by `npx tsx scripts/importFormat/write.ts`, and tests/import/importFormat.test.ts fails
// until it is.
import { employmentRecordKindNames } from '../../server/domain/employment.js';
import { companyIdPattern } from '../../server/domain/fields.js';
import { recordSchemas } from '../../server/importing/records.js';

export const BEGIN = '<!-- fields: written by `npx tsx scripts/importFormat/write.ts` from server/domain/employment.ts; do not edit -->';
export const END = '<!-- end of fields -->';

type Schema = { [key: string]: any };

/** The records whose fields the declaration gives: an employee and its per-employment records. */
const declared = ['employee', ...employmentRecordKindNames] as const;

/** What a field's values are, in a reader's words. */
export function describe(schema: Schema): string {
  if (schema.anyOf) {
    const [value, none] = schema.anyOf as Schema[];
    if (none?.type === 'null' && schema.anyOf.length === 2) return `${describe(value!)}, or \`null\``;
  }
  if (schema.enum) return (schema.enum as (string | null)[]).map((v) => (v === null ? '`null`' : `\`${v}\``)).join(' \\| ');
  if (schema.format === 'uuid') return 'UUID';
  if (schema.format === 'date') return 'date (`YYYY-MM-DD`)';
  if (schema.format === 'date-time') return 'date-time';
  if (schema.pattern === companyIdPattern) return "company id (as a `company` record's `id`)";
  if (schema.type === 'string') {
    const { minLength = 0, maxLength } = schema;
    return minLength > 0 ? `text, ${minLength}–${maxLength} characters` : `text, at most ${maxLength} characters`;
  }
  if (schema.type === 'array') return `list of ${describe(schema.items)}`;
  if (schema.type === 'object') {
    return `{${Object.entries(schema.properties as Record<string, Schema>)
      .map(([key, value]) => `\`${key}\`: ${describe(value)}`)
      .join('; ')}}`;
  }
  throw new Error(`no words for the schema ${JSON.stringify(schema)}`);
}

/** One row per field of each declared record (a nested object's fields by their path). */
export function fieldsTable(): string {
  const rows: string[][] = [];
  const walk = (type: string, schema: Schema, prefix: string) => {
    const required = new Set<string>(schema.required);
    for (const [key, value] of Object.entries(schema.properties as Record<string, Schema>)) {
      if (key === 'type' || key === 'employeeId') continue;
      if (value.type === 'object' && value.properties) walk(type, value, `${prefix}${key}.`);
      else rows.push([`\`${type}\``, `\`${prefix}${key}\``, describe(value) + (required.has(key) ? '' : ' (may be left out)')]);
    }
  };
  for (const type of declared) walk(type, recordSchemas[type] as Schema, '');
  const header = ['record', 'field', 'value'];
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** `markdown` with the text between its markers replaced by the table. */
export function withFieldsTable(markdown: string): string {
  const begin = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (begin === -1 || end < begin) throw new Error('FORMAT.md has no fields markers');
  return `${markdown.slice(0, begin + BEGIN.length)}\n\n${fieldsTable()}\n\n${markdown.slice(end)}`;
}
