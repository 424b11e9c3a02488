// Import = parse, check everything, then write everything in one transaction.
import type { Database } from '../db/database.js';
import { checkImport } from './check.js';
import { parseImportText } from './parse.js';
import type { ImportRecord } from './records.js';
import { ImportRejected, writeImport, type ImportCounts } from './write.js';

export { ImportRejected, type ImportCounts };
export { ImportParseError } from './parse.js';

export async function importText(db: Database, text: string, defaultPhoneRegion: string): Promise<ImportCounts> {
  return importSourced(db, parseImportText(text), defaultPhoneRegion);
}

export async function importRecords(db: Database, records: ImportRecord[], defaultPhoneRegion: string): Promise<ImportCounts> {
  return importSourced(db, records.map((value, index) => ({ line: index + 1, value })), defaultPhoneRegion);
}

async function importSourced(db: Database, sourced: { line: number; value: unknown }[], defaultPhoneRegion: string): Promise<ImportCounts> {
  const { plan, problems } = checkImport(sourced, defaultPhoneRegion);
  // The database checks run even when the file has problems, so one run names them all.
  return writeImport(db, plan, problems);
}
