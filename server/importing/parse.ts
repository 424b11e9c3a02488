// Reads an import file's text into records, remembering where each came from so
// every rejection can name its line.

export interface SourcedRecord {
  /** 1-based line (NDJSON) or array position (JSON array). */
  line: number;
  value: unknown;
}

export class ImportParseError extends Error {}

export function parseImportText(text: string): SourcedRecord[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new ImportParseError(`not valid JSON: ${(error as Error).message}`);
    }
    return (parsed as unknown[]).map((value, index) => ({ line: index + 1, value }));
  }
  const records: SourcedRecord[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    try {
      records.push({ line: index + 1, value: JSON.parse(line) });
    } catch {
      problems.push(`line ${index + 1}: not valid JSON`);
    }
  });
  if (problems.length) throw new ImportParseError(problems.join('\n'));
  return records;
}
