// npm run import -- <file.ndjson|file.json> [--snapshot COMPANY_ID]...
// (package.json caps the heap at 128 MB: the import streams, and a cap keeps V8 from
// letting garbage grow the process past 256 MB on a large file.)
// Applies source records (see server/importing/FORMAT.md) all-or-nothing: added, replaced
// or deleted by id, in file order; a snapshot company's employments the file lacks are
// deleted. On rejection every problem is listed with its line and nothing is written.
import { ConfigError, loadConfig } from '../config.js';
import { IMPORT_SESSION_SETTINGS, ImportParseError, ImportRejected, type ImportSummary, importFile } from '../importing/index.js';
import { storedRecordTypes } from '../importing/records.js';
import { fail, parseCommandLine } from './commandLine.js';
import { openCliDatabase } from './database.js';

const usage = 'usage: import <file.ndjson | file.json> [--snapshot COMPANY_ID]...';

async function main(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(argv, { snapshot: { type: 'string', multiple: true } }, usage);
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length) fail(usage);
  const config = loadConfig();
  const db = await openCliDatabase(config, { sessionSettings: IMPORT_SESSION_SETTINGS });
  try {
    const started = Date.now();
    const summary = await importFile(db, file, { defaultPhoneRegion: config.defaultPhoneRegion, snapshotCompanies: parsed.values.snapshot });
    process.stdout.write(renderSummary(summary, Date.now() - started));
  } catch (error) {
    if (error instanceof ImportRejected) {
      process.stderr.write(
        `import rejected, nothing was written. ${error.total} problem(s)${error.total > error.problems.length ? `, the first ${error.problems.length}` : ''}:\n`,
      );
      for (const p of error.problems) process.stderr.write(`  line ${p.line}: ${p.record}: ${p.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof ImportParseError) {
      process.stderr.write(`import rejected, nothing was written: ${error.message}\n`);
      process.exitCode = 2;
    } else throw error;
  } finally {
    await db.close();
  }
}

/** One line per record type the file touched: "employee: 3 added, 1 changed, 2 unchanged, ...". */
export function renderSummary(summary: ImportSummary, ms: number): string {
  const lines = [`imported ${summary.records} record(s) in ${ms} ms`];
  for (const type of storedRecordTypes) {
    const c = summary[type];
    if (!Object.values(c).some(Boolean)) continue;
    lines.push(`  ${type}: ${c.added} added, ${c.changed} changed, ${c.unchanged} unchanged, ${c.deleted} deleted, ${c.already_absent} already absent`);
  }
  return `${lines.join('\n')}\n`;
}

main(process.argv.slice(2)).catch((error) => fail(error instanceof ConfigError ? `configuration error: ${error.message}` : String(error?.message ?? error)));
