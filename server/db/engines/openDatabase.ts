// Opens the engine the options point at (database.ts), loading only that engine's driver.
import type { Database, DatabaseOptions } from './database.js';

/** Opens the database the options point at. Does not migrate; see schema/migrate.ts. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(options);
  }
  const { openPglite } = await import('./pglite.js');
  return openPglite(options);
}
