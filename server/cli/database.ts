// The database a command-line tool works on: the one the server would use, which must
// be persistent (DATABASE_URL or PGLITE_DATA_DIR); an in-memory one would vanish on exit.
import type { Config } from '../config.js';
import type { Database, DatabaseOptions } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { openDatabase } from '../db/openDatabase.js';

/** `options` are added to the configured ones (a tool's own session settings). */
export async function openCliDatabase(config: Config, options: Partial<DatabaseOptions> = {}): Promise<Database> {
  if (!config.databaseUrl && !config.pgliteDataDir) {
    throw new Error(
      'set DATABASE_URL (PostgreSQL) or PGLITE_DATA_DIR (embedded database directory): an in-memory database would be lost when this command exits',
    );
  }
  const db = await openDatabase({ ...config, ...options });
  await migrate(db);
  return db;
}
