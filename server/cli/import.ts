// npm run import -- <file.ndjson|file.json>
// Loads source records (see server/importing/FORMAT.md) all-or-nothing; on rejection
// every problem is listed with its line and nothing is written.
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config.js';
import { ImportParseError, ImportRejected, importText } from '../importing/index.js';
import { fail, openCliDatabase } from './database.js';

async function main(args: string[]): Promise<void> {
  const [file] = args;
  if (!file) fail('usage: import <file.ndjson | file.json>');
  const config = loadConfig();
  const text = readFileSync(file, 'utf8');
  const db = await openCliDatabase(config);
  try {
    const started = Date.now();
    const counts = await importText(db, text, config.defaultPhoneRegion);
    const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
    process.stdout.write(`imported ${summary} in ${Date.now() - started} ms\n`);
  } catch (error) {
    if (error instanceof ImportRejected) {
      process.stderr.write(`import rejected, nothing was written. ${error.problems.length} problem(s):\n`);
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

main(process.argv.slice(2)).catch((error) => fail(error instanceof ConfigError ? `configuration error: ${error.message}` : String(error?.message ?? error)));
