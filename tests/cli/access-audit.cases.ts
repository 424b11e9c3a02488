// `npm run access-audit`, run as a process after the service answered person operations
// on the same database (a persistent embedded one, and PostgreSQL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from '../../server/db/schema/migrate.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine, openMigratedDataDir, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/server.js';

const ISO = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';

/** The access-audit command, on each of `engines` (none: a skipped placeholder). */
export function accessAuditCommand(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'access-audit command on %s', placeholder: 'the access-audit command' }, (engine) => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-audit-'));
    let env: NodeJS.ProcessEnv;
    let postgres: ThrowawayDatabase | undefined;
    let both: string;
    let acme: string;
    let listedFirst: string;
    beforeAll(async () => {
      let database: ThrowawayDatabase;
      if (engine === 'postgres') {
        database = postgres = await throwawayDatabase('postgres');
        env = { ...process.env, DATABASE_URL: database.url };
      } else {
        // Migrated from the run's template (a command's first start on a new directory is cli.test.ts's).
        const db = await openMigratedDataDir(join(dir, 'db'));
        await migrate(db);
        database = { db, drop: () => db.close() };
        env = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: join(dir, 'db') };
      }
      const server = await startTestServer({ database, records: smallDataset() });
      const listed = await server.call('POST', '/v1/persons/search', { token: tokens.both, body: { limit: 1 } });
      listedFirst = listed.body.persons[0].id;
      await server.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.acme });
      await server.call('GET', `/v1/persons/${ids.hidden}`, { token: tokens.acme });
      await server.call('POST', '/v1/employees/search', { token: tokens.both, body: { lastName: 'durand' } });
      both = (await findActiveCredential(database.db, hashToken(tokens.both)))!.id;
      acme = (await findActiveCredential(database.db, hashToken(tokens.acme)))!.id;
      await server.close();
      // The embedded database is one process's at a time: the command's, from here on.
      if (engine === 'pglite') await database.drop();
    }, 60_000);
    afterAll(async () => {
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const audit = (...args: string[]) => runCommand('accessAudit', args, env);

    it("prints a person's history: when, which operation, returned or asked for in vain, by which credential", async () => {
      const emile = await audit('person', ids.emile);
      expect(emile.code, emile.stderr).toBe(0);
      const lines = emile.stdout.trim().split('\n');
      expect(lines[0]).toBe(`person ${ids.emile}: ${listedFirst === ids.emile ? 2 : 1} ${listedFirst === ids.emile ? 'entries' : 'entry'}`);
      expect(lines.at(-1)).toMatch(new RegExp(`^${ISO}  getPerson      returned                 credential ${acme} "acme only"$`));
      const hidden = await audit('person', ids.hidden);
      expect(hidden.stdout.trim().split('\n')[1]).toMatch(new RegExp(`^${ISO}  getPerson      asked for, not returned  credential ${acme} "acme only"$`));
    });

    it('prints who retrieved an unlinked employment record through Search employees', async () => {
      const result = await audit('employee', ids.unlinked);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim().split('\n')).toEqual([
        `employee ${ids.unlinked}: 1 entry`,
        expect.stringMatching(new RegExp(`^${ISO}  searchEmployees  returned  credential ${both} "acme and globex"$`)),
      ]);
      expect((await audit('employee', ids.emileAcme)).stdout).toBe(`employee ${ids.emileAcme}: 0 entries\n`);
    });

    it('prints what a credential retrieved, and the same as NDJSON', async () => {
      const text = await audit('credential', acme);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout.trim().split('\n')).toEqual([
        `credential ${acme} "acme only": 2 entries, 1 distinct people returned`,
        expect.stringMatching(new RegExp(`^${ISO}  getPerson      1 returned: ${ids.emile}$`)),
        expect.stringMatching(new RegExp(`^${ISO}  getPerson      none returned  \\(asked for ${ids.hidden}, not returned\\)$`)),
      ]);
      const json = await audit('credential', both, '--json');
      expect(
        json.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual([
        {
          at: expect.stringMatching(new RegExp(`^${ISO}$`)),
          credentialId: both,
          credentialName: 'acme and globex',
          operation: 'searchPersons',
          personIds: [listedFirst],
          notFoundPersonId: null,
          employeeIds: [],
        },
        {
          at: expect.stringMatching(new RegExp(`^${ISO}$`)),
          credentialId: both,
          credentialName: 'acme and globex',
          operation: 'searchEmployees',
          personIds: [],
          notFoundPersonId: null,
          employeeIds: [ids.unlinked],
        },
      ]);
      expect((await audit('credential', both, '--since', '2999-01-01T00:00:00Z')).stdout).toBe(`credential ${both}: 0 entries, 0 distinct people returned\n`);
      // A duration is that long ago: the last hour holds the entries just written, the hour before none.
      expect((await audit('credential', both, '--since', '1h')).stdout).toMatch(new RegExp(`^credential ${both} "acme and globex": [1-9]\\d* entr`));
      expect((await audit('credential', both, '--until', '1h')).stdout).toBe(`credential ${both}: 0 entries, 0 distinct people returned\n`);
    });

    it('exits 1 with a clear message on a malformed id or instant', async () => {
      for (const [args, message] of [
        [['person', 'emile'], 'person id must be a UUID; got "emile"'],
        [
          ['credential', acme, '--since', 'yesterday'],
          '--since: "yesterday" is neither an RFC 3339 instant with an offset (2026-01-31T00:00:00Z) nor a duration ago (7d)',
        ],
        [['credential', acme, '--since', '2026-12-01T00:00:00Z', '--until', '2026-11-01T00:00:00Z'], '--since must be before --until'],
        [['company', acme], 'usage: npm run access-audit'],
      ] as const) {
        const result = await audit(...args);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(message);
      }
    }, 30_000);
  });
}
