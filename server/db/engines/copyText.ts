// Rows in PostgreSQL's COPY text format: tab-separated, \N for NULL, backslash escapes.
// The import stages its records this way, and the bench's bulk loader writes the same rows.

export type CopyValue = string | number | boolean | null | undefined;

const SPECIAL = /[\\\t\n\r]/;

/** One value, escaped (backslash, tab, newline, carriage return). */
export function copyValue(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = String(value);
  if (!SPECIAL.test(text)) return text;
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** One row, newline-terminated. */
export function copyLine(values: readonly CopyValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i ? '\t' : '') + copyValue(values[i]);
  return `${line}\n`;
}
