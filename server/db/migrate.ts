// Versioned SQL migrations: db/migrations/NNN_name.sql, applied in order, each in its
// own transaction, recorded in schema_migrations. The same files serve both engines.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Applies the pending migrations, in order; with `through`, only up to that file (tests of a migration's data move). */
export async function migrate(db: Database, { through }: { through?: string } = {}): Promise<string[]> {
  await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const applied = new Set((await db.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  const pending = readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql') && !applied.has(f) && (through === undefined || f <= through))
    .sort();
  for (const file of pending) {
    const sql = readFileSync(migrationsDir + file, 'utf8');
    await db.transaction(async (tx) => {
      // Serialize concurrent migrators (several instances starting at once on PostgreSQL).
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(728301)');
      const [already] = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [file]);
      if (already) return;
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
    });
  }
  return pending;
}

/**
 * Splits a migration file on semicolons that end a line, except inside a dollar-quoted
 * body ($$ ... $$, as in a trigger function), whose own statements end lines too.
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
