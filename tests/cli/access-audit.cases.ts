// `npm run access-audit`, run as a process after the service answered person operations
// on the same database (a persistent embedded one, and PostgreSQL): who read whom, and
// why, the credential's field groups and purpose at each read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { changePurpose } from '../../server/access/credentialChanges.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { insertAuditEntries } from '../../server/db/stores/accessAudit.js';
import { findActiveCredential, insertCredential } from '../../server/db/stores/credentials.js';
import { everyField } from '../../server/domain/fieldGroups.js';
import { hashToken } from '../../server/domain/tokens.js';
import { ids, smallDataset, tokens } from '../fixtures/small.js';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine, openMigratedDataDir, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/server.js';

const ISO = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';
/** Someone only the entries written below name (the audit holds ids, with no foreign key). */
const READ_BY_SCHEDULER = '00000000-0000-4000-8000-00000000a115';
const NOT_RECORDED = '    field groups and purpose not recorded (an entry from before they were)';

/** The access-audit command, on each of `engines` (none: a skipped placeholder). */
export function accessAuditCommand(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'access-audit command on %s', placeholder: 'the access-audit command' }, (engine) => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-audit-'));
    let env: NodeJS.ProcessEnv;
    let postgres: ThrowawayDatabase | undefined;
    let both: string;
    let acme: string;
    let listedFirst: string;
    let scheduler: string;
    /** The second line of an entry the test server wrote: the fixtures' credentials read every group. */
    let grantLine: string;
    beforeAll(async () => {
      grantLine = '    could read all; purpose: tests: reads every field group';
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
      // A narrow credential's reads, its purpose changed since; and one from before purposes were recorded.
      scheduler = await insertCredential(database.db, {
        name: 'scheduler',
        tokenHash: hashToken('plk_test_audit_scheduler_001'),
        companies: ['acme-corp'],
        fields: ['name', 'email'],
        purpose: 'shift scheduling',
      });
      const read = (second: number) => ({ at: new Date(Date.UTC(2026, 0, 2, 9, 0, second)), credentialId: scheduler, personIds: [READ_BY_SCHEDULER] });
      await insertAuditEntries(database.db, [{ ...read(1), operation: 'searchPersons', fields: ['name', 'email'], purpose: 'shift scheduling' }]);
      await changePurpose(database.db, scheduler, 'rota planning');
      await insertAuditEntries(database.db, [{ ...read(2), operation: 'getPerson', fields: ['name', 'email'], purpose: 'rota planning' }]);
      await database.db.query(`INSERT INTO access_audit (at, credential_id, operation, person_ids) VALUES ($1, $2, 'getPerson', $3)`, [
        new Date(Date.UTC(2026, 0, 1, 9, 0, 0)),
        acme,
        [READ_BY_SCHEDULER],
      ]);
      // The embedded database is one process's at a time: the command's, from here on.
      if (engine === 'pglite') await database.drop();
    }, 60_000);
    afterAll(async () => {
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const audit = (...args: string[]) => runCommand('accessAudit', args, env);
    const jsonGrant = () => ({ fields: everyField, purpose: 'tests: reads every field group' });

    it("prints a person's history: when, which operation, returned or asked for in vain, by which credential", async () => {
      const emile = await audit('person', ids.emile);
      expect(emile.code, emile.stderr).toBe(0);
      const lines = emile.stdout.trim().split('\n');
      expect(lines[0]).toBe(`person ${ids.emile}: ${listedFirst === ids.emile ? 2 : 1} ${listedFirst === ids.emile ? 'entries' : 'entry'}`);
      expect(lines.at(-2)).toMatch(new RegExp(`^${ISO}  getPerson      returned                 credential ${acme} "acme only"$`));
      expect(lines.at(-1)).toBe(grantLine);
      const hidden = await audit('person', ids.hidden);
      expect(hidden.stdout.trim().split('\n').slice(1)).toEqual([
        expect.stringMatching(new RegExp(`^${ISO}  getPerson      asked for, not returned  credential ${acme} "acme only"$`)),
        grantLine,
      ]);
    });

    it('says, per read of a person, which field groups the credential could read and its purpose then, not now', async () => {
      const result = await audit('person', READ_BY_SCHEDULER);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(
        [
          `person ${READ_BY_SCHEDULER}: 3 entries`,
          `2026-01-01T09:00:00.000Z  getPerson      returned                 credential ${acme} "acme only"`,
          NOT_RECORDED,
          `2026-01-02T09:00:01.000Z  searchPersons  returned                 credential ${scheduler} "scheduler"`,
          '    could read name,email; purpose: shift scheduling',
          `2026-01-02T09:00:02.000Z  getPerson      returned                 credential ${scheduler} "scheduler"`,
          '    could read name,email; purpose: rota planning',
          '',
        ].join('\n'),
      );
      const json = (await audit('person', READ_BY_SCHEDULER, '--json')).stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(json.map((e) => [e.credentialName, e.fields, e.purpose])).toEqual([
        ['acme only', null, null],
        ['scheduler', ['name', 'email'], 'shift scheduling'],
        ['scheduler', ['name', 'email'], 'rota planning'],
      ]);
    });

    it('prints who retrieved an unlinked employment record through Search employees', async () => {
      const result = await audit('employee', ids.unlinked);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim().split('\n')).toEqual([
        `employee ${ids.unlinked}: 1 entry`,
        expect.stringMatching(new RegExp(`^${ISO}  searchEmployees  returned  credential ${both} "acme and globex"$`)),
        grantLine,
      ]);
      expect((await audit('employee', ids.emileAcme)).stdout).toBe(`employee ${ids.emileAcme}: 0 entries\n`);
    });

    it('prints what a credential retrieved, and the same as NDJSON', async () => {
      const text = await audit('credential', acme);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout.trim().split('\n')).toEqual([
        `credential ${acme} "acme only": 3 entries, 2 distinct people returned`,
        expect.stringMatching(new RegExp(`^2026-01-01T09:00:00.000Z  getPerson      1 returned: ${READ_BY_SCHEDULER}$`)),
        NOT_RECORDED,
        expect.stringMatching(new RegExp(`^${ISO}  getPerson      1 returned: ${ids.emile}$`)),
        grantLine,
        expect.stringMatching(new RegExp(`^${ISO}  getPerson      none returned  \\(asked for ${ids.hidden}, not returned\\)$`)),
        grantLine,
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
          ...jsonGrant(),
        },
        {
          at: expect.stringMatching(new RegExp(`^${ISO}$`)),
          credentialId: both,
          credentialName: 'acme and globex',
          operation: 'searchEmployees',
          personIds: [],
          notFoundPersonId: null,
          employeeIds: [ids.unlinked],
          ...jsonGrant(),
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
