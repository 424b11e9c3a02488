// Embedded PGlite: in memory, or in a data directory that survives restarts and that one
// process at a time may open (dataDirLock.ts).
import { PGlite, types } from '@electric-sql/pglite';
import { type Database, type DatabaseOptions, SESSION_SETTINGS } from './database.js';
import { lockDataDir } from './dataDirLock.js';

// Same choice as postgres.ts: a `date` stays the 'YYYY-MM-DD' string PostgreSQL sends.
const parsers = { [types.DATE]: (value: string) => value };

export async function openPglite(options: DatabaseOptions): Promise<Database> {
  const lock = options.pgliteDataDir ? lockDataDir(options.pgliteDataDir) : undefined;
  let db: PGlite;
  try {
    db = await PGlite.create({
      dataDir: lock?.dir,
      loadDataDir: options.pgliteLoadDataDir,
      parsers,
    });
    for (const [name, value] of Object.entries({ ...SESSION_SETTINGS, ...options.sessionSettings })) await db.query(`SET ${name} = '${value}'`);
  } catch (error) {
    lock?.release();
    throw error;
  }
  return {
    kind: 'pglite',
    query: async (sql, params) => (await db.query(sql, params as unknown[])).rows as any,
    transaction: (work) =>
      db.transaction((tx) =>
        work({
          query: async (sql, params) => (await tx.query(sql, params as unknown[])).rows as any,
          // PGlite reads COPY input from a blob it is handed.
          copyIn: async (table, columns, text) => {
            await tx.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob'`, [], { blob: new Blob([text]) });
          },
        }),
      ),
    async ping() {
      await db.query('SELECT 1');
    },
    async close() {
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
  };
}
