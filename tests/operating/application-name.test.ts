// An operator on a shared PostgreSQL tells the service's connections from an import's in
// pg_stat_activity (and the server's log, with %a in log_line_prefix): each process names
// its connections, lookup-service or lookup-<command>; PGAPPNAME, or application_name in
// the URL, names them otherwise.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openCliDatabase } from '../../server/cli/database.js';
import { loadConfig } from '../../server/config.js';
import type { Database } from '../../server/db/engines/database.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseUrl } from '../helpers/environment.js';
import { type ConfiguredServer, startConfiguredServer } from '../helpers/server.js';

if (!databaseUrl) describe.skip('application_name (DATABASE_URL not set: these need a real PostgreSQL)', () => it('skipped', () => {}));

describe.runIf(databaseUrl)("each process's connections named in pg_stat_activity", () => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase('postgres');
  }, 60_000);
  afterAll(() => database?.drop());

  const opened: Database[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
    delete process.env.PGAPPNAME;
  });
  const nameOf = async (url: string, command: string) => {
    const db = await openCliDatabase(loadConfig({ DATABASE_URL: url }), command);
    opened.push(db);
    const [row] = await db.query<{ name: string }>("SELECT current_setting('application_name') AS name");
    return row!.name;
  };

  it("names the service's connections lookup-service", async () => {
    let server: ConfiguredServer | undefined;
    try {
      server = await startConfiguredServer({ DATABASE_URL: database.url! });
      const [row] = await database.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'lookup-service'",
      );
      expect(row!.n).toBeGreaterThan(0);
    } finally {
      await server?.close();
    }
  });

  it("names a command's connections after the command", async () => {
    expect(await nameOf(database.url!, 'import')).toBe('lookup-import');
  });

  it('leaves the name to PGAPPNAME where it is set', async () => {
    process.env.PGAPPNAME = 'nightly-hr-feed';
    expect(await nameOf(database.url!, 'import')).toBe('nightly-hr-feed');
  });

  it("leaves the name to the URL's application_name where it gives one", async () => {
    const url = new URL(database.url!);
    url.searchParams.set('application_name', 'hr-sync');
    expect(await nameOf(url.toString(), 'import')).toBe('hr-sync');
  });
});
