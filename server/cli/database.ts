// The database a command-line tool works on: the one the server would use, which must
// be persistent (DATABASE_URL or PGLITE_DATA_DIR); an in-memory one would vanish on exit.
import type { Config } from '../config.js';
import type { Database, DatabaseOptions } from '../db/engines/database.js';
import { openDatabase } from '../db/engines/openDatabase.js';
import { migrate } from '../db/schema/migrate.js';

/** `options` are added to the configured ones (a tool's own session settings). */
export async function openCliDatabase(config: Config, options: Partial<DatabaseOptions> = {}): Promise<Database> {
  return (await openMigratedCliDatabase(config, options)).db;
}

/** The command's database, migrated, and the steps that migrating it applied (`npm run migrate` reports them). */
export async function openMigratedCliDatabase(config: Config, options: Partial<DatabaseOptions> = {}): Promise<{ db: Database; applied: string[] }> {
  if (!config.databaseUrl && !config.pgliteDataDir) {
    throw new Error(
      'set DATABASE_URL (PostgreSQL) or PGLITE_DATA_DIR (embedded database directory): an in-memory database would be lost when this command exits',
    );
  }
  // Past a transaction pooler when there is a way: an import's temporary tables and
  // session settings need a session of its own.
  const direct = config.databaseDirectUrl ? { databaseUrl: config.databaseDirectUrl, transactionPooling: false } : {};
  const db = await openDatabase({ ...config, ...options, ...direct });
  let applied: string[];
  try {
    applied = await migrate(db);
  } catch (error) {
    await db.close().catch(() => {});
    // Commands write, so they need the primary itself: say so when it cannot be reached.
    if (!config.databaseUrl || !unreachable(error)) throw error;
    const variable = config.databaseDirectUrl ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL';
    throw new Error(`cannot reach the primary (${variable}): ${(error as Error).message}; nothing was changed`, { cause: error });
  }
  return { db, applied };
}

/** A connection that could not be made or was lost (PostgreSQL down, starting up, or out of reach). */
function unreachable(error: unknown): boolean {
  const { code = '', message = '' } = error as { code?: string; message?: string };
  return (
    /^(ECONN|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN|57P0|08)/.test(code) || /Connection terminated|timeout exceeded when trying to connect/i.test(message)
  );
}
