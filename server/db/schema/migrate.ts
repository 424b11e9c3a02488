// The schema comes from two kinds of SQL file, the same on both engines
// (docs/contributing/database.md):
// - migrations, db/schema/migrations/NNN_name.sql: each applied once, in order, in its own
//   transaction, and recorded by file name in schema_migrations;
// - the repeatable upkeep source, db/derived/upkeep.sql (how derived data follows the
//   source tables): applied after the migrations whenever its text has changed or a
//   migration has been added (which may have re-created what its triggers sit on), and
//   recorded as one schema_migrations row naming both: its checksum and the last migration.
// Every step runs under one advisory lock on PostgreSQL, so that instances starting at
// once apply it once. A start with nothing to do reads schema_migrations (one query) and
// hashes one file.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database, Transaction } from '../engines/database.js';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));
const upkeepFile = fileURLToPath(new URL('../derived/upkeep.sql', import.meta.url));
/** The upkeep source's name in schema_migrations (and in what migrate returns). */
export const upkeepSource = 'derived/upkeep.sql';

/** The migration files on disk, in the order they apply. */
function migrationFiles(): string[] {
  return readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

/** The upkeep source's schema_migrations row as it should read: its checksum and the last migration. */
function upkeepVersion(upkeep: string, migrations: readonly string[]): string {
  return `${upkeepSource} sha256:${createHash('sha256').update(upkeep).digest('hex')} after ${migrations.at(-1)}`;
}

/**
 * What migrate() would apply, without applying or creating anything (a server started with
 * MIGRATE_ON_START=false refuses to serve when this is not empty).
 */
export async function pendingSteps(db: Database): Promise<string[]> {
  const recorded = await readRecorded(db);
  const migrations = migrationFiles();
  const pending = migrations.filter((f) => !recorded.has(f));
  if (upkeepDue(recorded, migrations, readFileSync(upkeepFile, 'utf8'))) pending.push(upkeepSource);
  return pending;
}

/** Migrations the database records that this build has no file for: a newer build migrated it (a rollout or a rollback under way). */
export async function newerMigrations(db: Database): Promise<string[]> {
  return newerThanThisBuild(await readRecorded(db), migrationFiles());
}

/** Applies the pending migrations, then the upkeep source if it is due; returns what it applied. */
export async function migrate(db: Database): Promise<string[]> {
  const recorded = await recordedSteps(db);
  const migrations = migrationFiles();
  const applied: string[] = [];
  for (const file of migrations.filter((f) => !recorded.has(f))) {
    const sql = readFileSync(migrationsDir + file, 'utf8');
    const done = await migratorsTransaction(db, async (tx) => {
      if ((await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [file])).length) return false;
      await run(tx, sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
      return true;
    });
    if (done) applied.push(file);
  }
  const upkeep = readFileSync(upkeepFile, 'utf8');
  if (!upkeepDue(recorded, migrations, upkeep)) return applied;
  const version = upkeepVersion(upkeep, migrations);
  const done = await migratorsTransaction(db, async (tx) => {
    if ((await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version])).length) return false;
    await run(tx, upkeep);
    await tx.query('DELETE FROM schema_migrations WHERE starts_with(version, $1)', [`${upkeepSource} `]);
    await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    return true;
  });
  if (done) applied.push(upkeepSource);
  return applied;
}

/**
 * Whether this build's upkeep source is to be applied: not when it is the one recorded, and
 * never where a newer build has migrated the database, whose upkeep source this older one
 * would undo (an old instance restarting during a rollout).
 */
function upkeepDue(recorded: ReadonlySet<string>, migrations: readonly string[], upkeep: string): boolean {
  return !recorded.has(upkeepVersion(upkeep, migrations)) && !newerThanThisBuild(recorded, migrations).length;
}

/** The recorded migrations (not the upkeep source's row) this build has no file for. */
function newerThanThisBuild(recorded: ReadonlySet<string>, migrations: readonly string[]): string[] {
  const known = new Set(migrations);
  return [...recorded].filter((version) => !version.startsWith(`${upkeepSource} `) && !known.has(version)).sort();
}

/** What schema_migrations records, without creating it (empty on a database never migrated). */
async function readRecorded(db: Database): Promise<Set<string>> {
  try {
    return new Set((await db.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  } catch (error) {
    if ((error as { code?: string }).code !== '42P01') throw error; // undefined_table: never migrated
    return new Set();
  }
}

/** What schema_migrations records; on a database that has none, it is made (under the lock). */
async function recordedSteps(db: Database): Promise<Set<string>> {
  const recorded = await readRecorded(db);
  // (Not IF NOT EXISTS alone: two of those at once can both try to create it, and one fails.)
  if (!recorded.size)
    await migratorsTransaction(db, (tx) =>
      tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())'),
    );
  return recorded;
}

/** One step's transaction, serialized with every other migrator of the same database. */
function migratorsTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // (PGlite has one connection, and one process holds its data directory.)
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(728301)');
    return work(tx);
  });
}

async function run(tx: Transaction, sql: string): Promise<void> {
  for (const statement of splitStatements(sql)) await tx.query(statement);
}

/**
 * Splits a SQL file on semicolons that end a line, except inside a dollar-quoted body
 * ($$ ... $$, as in a trigger function), whose own statements end lines too. Whole-line
 * comments are dropped first, inside bodies too.
 */
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let inBody = false;
  for (const line of sql.replace(/^\s*--.*$/gm, '').split('\n')) {
    current += `${line}\n`;
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.trim().replace(/;$/, ''));
      current = '';
    }
  }
  if (current.trim()) statements.push(current.trim());
  return statements.filter(Boolean);
}
