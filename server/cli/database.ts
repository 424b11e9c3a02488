// The database a command-line tool works on: the one the server would use, which must
// be persistent (DATABASE_URL or PGLITE_DATA_DIR); an in-memory one would vanish on exit.
// Opened as the service opens it (server/db/engines/connect.ts): PostgreSQL waited for up to
// DATABASE_CONNECT_TIMEOUT_MS, an embedded directory only if no other process holds it.
import { type Config, ConfigError } from '../config.js';
import { connectDatabase, connectionFailure } from '../db/engines/connect.js';
import type { Database, DatabaseOptions } from '../db/engines/database.js';
import { DatabaseProblem } from '../db/engines/databaseProblem.js';
import { migrate } from '../db/schema/migrate.js';

/**
 * `command` names the tool's connections (`lookup-<command>` in pg_stat_activity); `options`
 * are added to the configured ones (a tool's own session settings).
 */
export async function openCliDatabase(config: Config, command: string, options: Partial<DatabaseOptions> = {}): Promise<Database> {
  return (await openMigratedCliDatabase(config, command, options)).db;
}

/** The command's database, migrated, and the steps that migrating it applied (`npm run migrate` reports them). */
export async function openMigratedCliDatabase(
  config: Config,
  command: string,
  options: Partial<DatabaseOptions> = {},
): Promise<{ db: Database; applied: string[] }> {
  if (!config.databaseUrl && !config.pgliteDataDir) {
    throw new ConfigError(
      'set DATABASE_URL (PostgreSQL) or PGLITE_DATA_DIR (embedded database directory): an in-memory database would be lost when this command exits',
    );
  }
  // Past a transaction pooler when there is a way: an import's temporary tables and
  // session settings need a session of its own.
  const direct = config.databaseDirectUrl ? { databaseUrl: config.databaseDirectUrl, transactionPooling: false } : {};
  const variable = config.databaseDirectUrl ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL';
  const db = await connectDatabase(
    { ...config, applicationName: `lookup-${command}`, ...options, ...direct },
    { connectTimeoutMs: config.databaseConnectTimeoutMs, variable },
  );
  try {
    return { db, applied: await migrate(db) };
  } catch (error) {
    await db.close().catch(() => {});
    // Lost between the connection and the migration: said in the same words, one line.
    const cause = connectionFailure(error);
    if (!config.databaseUrl || !cause.transient) throw error;
    throw new DatabaseProblem(`${variable}: lost the connection to the primary: ${cause.text}; nothing was changed`, { cause: error });
  }
}
