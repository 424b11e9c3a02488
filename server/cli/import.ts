// npm run import -- [--dry-run] <file.ndjson|file.json> [--snapshot COMPANY_ID]... [--max-deletions PERCENT]
// (package.json caps the heap at 128 MB: the import streams, and a cap keeps V8 from
// letting garbage grow the process past 256 MB on a large file.)
// Applies source records (see server/importing/FORMAT.md) all-or-nothing: added, replaced
// or deleted by id, in file order; a snapshot company's employments the file lacks are
// deleted, up to --max-deletions percent of them. On rejection every problem is listed with
// its line and nothing is written. --dry-run says what the file would do and writes
// nothing. Progress goes to stderr; SIGINT or SIGTERM stops it, writing nothing.
import { accessSync, constants, statSync } from 'node:fs';
import { loadConfig } from '../config.js';
import {
  IMPORT_SESSION_SETTINGS,
  ImportInterrupted,
  ImportParseError,
  ImportRejected,
  type ImportSummary,
  importFile,
  letSignalsIn,
} from '../importing/index.js';
import { ProgressReport } from '../importing/progressReport.js';
import { storedRecordTypes } from '../importing/records.js';
import { DEFAULT_MAX_DELETIONS_PERCENT } from '../importing/snapshotGuard.js';
import { fail, failOn, failUsage, parseCommandLine } from './commandLine.js';
import { openCliDatabase } from './database.js';

const usage = `usage: npm run import -- [--dry-run] <file.ndjson | file.json> [--snapshot COMPANY_ID]... [--max-deletions PERCENT]
       (node --max-old-space-size=128 dist/server/cli/import.js … in the image)
  --dry-run                 check the file against the database and say what it would do; writes nothing
  --snapshot COMPANY_ID     the file holds all of the company's employments: the others are deleted
  --max-deletions PERCENT   with --snapshot: refuse to delete more than this share of a company's employments (default 20)
The format: server/importing/FORMAT.md; exit codes and signals: docs/operating/import.md.`;

/** Exit codes of a command stopped by a signal, as a shell reports one killed by it. */
const signalExitCodes = { SIGINT: 130, SIGTERM: 143 } as const;

async function main(argv: string[]): Promise<void> {
  const parsed = parseCommandLine(
    argv,
    { snapshot: { type: 'string', multiple: true }, 'max-deletions': { type: 'string' }, 'dry-run': { type: 'boolean' } },
    usage,
  );
  const [file, ...extra] = parsed.positionals;
  if (!file) failUsage('no file given', usage);
  if (extra.length) failUsage(`one file at a time; unexpected "${extra[0]}"`, usage);
  checkReadable(file);
  const maxDeletions = maxDeletionsPercent(parsed.values['max-deletions'], parsed.values.snapshot);
  const dryRun = parsed.values['dry-run'] === true;
  const config = loadConfig();

  // A signal aborts the import, which rolls back; the command then says so and exits 130 or
  // 143. Before the import has begun (connecting, waiting for a database), it exits at once.
  const stop = new AbortController();
  let stoppedBy: keyof typeof signalExitCodes | undefined;
  let importing = false;
  for (const signal of Object.keys(signalExitCodes) as (keyof typeof signalExitCodes)[]) {
    process.on(signal, () => {
      if (stoppedBy) return;
      stoppedBy = signal;
      if (!importing) {
        process.stderr.write('import interrupted, nothing was written\n');
        process.exit(signalExitCodes[signal]);
      }
      stop.abort();
    });
  }

  const db = await openCliDatabase(config, 'import', { sessionSettings: IMPORT_SESSION_SETTINGS });
  const progress = new ProgressReport({ live: process.stderr.isTTY === true, label: dryRun ? 'import (dry run)' : 'import' });
  try {
    const started = Date.now();
    importing = true;
    const summary = await importFile(db, file, {
      defaultPhoneRegion: config.defaultPhoneRegion,
      snapshotCompanies: parsed.values.snapshot,
      snapshotGuard: { maxDeletionsPercent: maxDeletions },
      dryRun,
      progress,
      signal: stop.signal,
      timings: config.importTimings,
    });
    await progress.stop();
    await letSignalsIn();
    process.stdout.write(renderSummary(summary, Date.now() - started));
    if (stoppedBy && !dryRun) process.stderr.write(`${stoppedBy} came as the import was committing: it was written whole\n`);
  } catch (error) {
    await progress.stop();
    if (error instanceof ImportInterrupted) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = signalExitCodes[stoppedBy ?? 'SIGINT'];
    } else if (error instanceof ImportRejected) {
      process.stderr.write(
        `import rejected, nothing was written. ${error.total} problem(s)${error.total > error.problems.length ? `, the first ${error.problems.length}` : ''}:\n`,
      );
      // (A problem of the command line itself, a --snapshot's, has line 0: it is named without one.)
      for (const p of error.problems) process.stderr.write(`  ${p.line > 0 ? `line ${p.line}: ` : ''}${p.record ? `${p.record}: ` : ''}${p.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof ImportParseError) {
      process.stderr.write(`import rejected, nothing was written: ${error.message}\n`);
      process.exitCode = 2;
    } else throw error;
  } finally {
    await db.close();
  }
}

/** The file is there and readable, checked before any database is opened: a typo costs nothing. */
function checkReadable(file: string): void {
  try {
    if (statSync(file).isDirectory()) fail(`${file} is a directory: name the file to import`);
    accessSync(file, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    fail(
      code === 'ENOENT' ? `${file}: no such file` : code === 'EACCES' ? `${file}: not readable (permission denied)` : `${file}: ${(error as Error).message}`,
    );
  }
}

/** --max-deletions as a number from 0 to 100 (default 20); it only means something with --snapshot. */
function maxDeletionsPercent(given: string | undefined, snapshots: string[] | undefined): number {
  if (given === undefined) return DEFAULT_MAX_DELETIONS_PERCENT;
  if (!snapshots?.length) failUsage(`--max-deletions applies to --snapshot, and none is given`, usage);
  if (!/^\d+(\.\d+)?$/.test(given) || Number(given) > 100) failUsage(`--max-deletions must be a percentage from 0 to 100, not ${JSON.stringify(given)}`, usage);
  return Number(given);
}

/** One line per record type the file touched: "employee: 3 added, 1 changed, 2 unchanged, ...". */
export function renderSummary(summary: ImportSummary, ms: number): string {
  const lines = [
    summary.dryRun
      ? `dry run, nothing was written: the file would import ${summary.records} record(s) (checked in ${ms} ms)`
      : `imported ${summary.records} record(s) in ${ms} ms`,
  ];
  for (const type of storedRecordTypes) {
    const c = summary[type];
    if (!Object.values(c).some(Boolean)) continue;
    lines.push(`  ${type}: ${c.added} added, ${c.changed} changed, ${c.unchanged} unchanged, ${c.deleted} deleted, ${c.already_absent} already absent`);
  }
  return `${lines.join('\n')}\n`;
}

main(process.argv.slice(2)).catch(failOn);
