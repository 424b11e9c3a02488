// The import command's own session settings (IMPORT_SESSION_SETTINGS, through the
// database option `sessionSettings`) hold in the session an import runs in, on both
// engines, from before its first temporary table; and an import still runs there.
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { IMPORT_SESSION_SETTINGS, importRecords } from '../../server/importing/index.js';
import { smallDataset } from '../fixtures/small.js';
import { engines, throwawayDatabase } from '../helpers/databases.js';

/** A migrated database opened with the import's settings, and how to dispose of it. */
async function withImportSettings(engine: (typeof engines)[number]): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (engine === 'pglite') {
    const db = await openDatabase({ sessionSettings: IMPORT_SESSION_SETTINGS });
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const throwaway = await throwawayDatabase(engine);
  const db = await openDatabase({ databaseUrl: throwaway.url, poolMax: 1, sessionSettings: IMPORT_SESSION_SETTINGS });
  return {
    db,
    async drop() {
      await db.close();
      await throwaway.drop();
    },
  };
}

describe.each(engines)('import session settings (%s)', (engine) => {
  it('are in force inside the import transaction, temp_buffers included, and the import runs', async () => {
    const { db, drop } = await withImportSettings(engine);
    try {
      const [seen] = await db.transaction(async (tx) => {
        await tx.query('CREATE TEMP TABLE t (x int) ON COMMIT DROP');
        return tx.query<{ temp_buffers: string }>('SHOW temp_buffers');
      });
      expect(seen!.temp_buffers).toBe(IMPORT_SESSION_SETTINGS.temp_buffers);
      const summary = await importRecords(db, smallDataset(), 'US');
      expect(summary.person.added).toBeGreaterThan(0);
    } finally {
      await drop();
    }
  });
});
