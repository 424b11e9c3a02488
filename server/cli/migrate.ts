// npm run migrate (node dist/server/cli/migrate.js in the image): applies the pending
// migrations and the derived data's upkeep source, says in one line what it did, and exits.
// For deployments that migrate as a step of their own (a Kubernetes Job) and start the
// servers with MIGRATE_ON_START=false (docs/operating/postgresql.md).
import { loadConfig } from '../config.js';
import { newerMigrations, upkeepSource } from '../db/schema/migrate.js';
import { fail } from './commandLine.js';
import { openMigratedCliDatabase } from './database.js';
import { describeProblem } from './problems.js';

const usage = `usage: npm run migrate   (node dist/server/cli/migrate.js)
Applies the pending migrations, then the derived data's upkeep if it is due, to the database
of DATABASE_URL (DATABASE_DIRECT_URL where set) or PGLITE_DATA_DIR, and exits. Takes no arguments.`;

async function main(argv: string[]): Promise<void> {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  if (argv.length) fail(`unexpected argument "${argv[0]}": the migration takes no arguments (--help says more)`);
  const config = loadConfig();
  if (!config.databaseUrl && !config.pgliteDataDir)
    fail('set DATABASE_URL (PostgreSQL) or PGLITE_DATA_DIR (embedded database directory): there is no database to migrate');
  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.pgliteDataDir}`;
  const { db, applied } = await openMigratedCliDatabase(config, 'migrate');
  const newer = await newerMigrations(db);
  await db.close();
  process.stdout.write(applied.length ? `migrated ${where}: applied ${applied.join(', ')}\n` : `${where} is up to date: nothing to apply\n`);
  if (newer.length)
    process.stdout.write(
      `${where} also holds migrations of a newer build (${newer.join(', ')}): this build's own are all applied, and the newer build's ${upkeepSource} is left as it wrote it\n`,
    );
}

// Each step runs in a transaction of its own: one that fails leaves nothing behind, and the
// steps before it stay applied (docs/operating/postgresql.md).
main(process.argv.slice(2)).catch((error) => {
  const { line, known } = describeProblem(error);
  fail(known ? line : `migration failed: ${line.replace(/\s*\n\s*/g, ' ')}`);
});
