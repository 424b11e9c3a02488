// The proof of erasure, run as an operator would: the data is imported and the erasures
// made by the commands (npm run import, credentials, erase) as processes, the service
// answers over HTTP before and after, and then the whole database is dumped (every table
// the catalog lists, and pg_dump on PostgreSQL) and searched for every erased value. The
// service's log and every command's output are searched too.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { derivedDataAndRebuild } from '../../server/db/derived/index.js';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { createLogger } from '../../server/observability/logger.js';
import type { CompanyErasure, PersonErasure } from '../../server/privacy/erasure.js';
import { erased, erasedIds, erasedPersonIds, erasureDataset, goneCompany, erasureIds as ids, kept, erasureTokens as tokens } from '../fixtures/erasure.js';

/** The erased values (the company's id aside: an id, kept in the change feed as the records' ids are). */
const erasedValues = erased.filter((value) => value !== goneCompany);

import type { Call } from '../helpers/call.js';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine, openMigratedDataDir, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { dumpAll, findValues } from '../helpers/dumpAll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Each step starts commands as processes (tsx and PGlite start-up each time), which is slow on a busy machine. */
const STEP_MS = 180_000;
const PG_DUMP = '/usr/bin/pg_dump';
/** The command outputs name the company offboarded (an id the operator gave, not a person's); every other value must be absent from them. */
const personal = erased.filter((v) => v !== goneCompany);

/** The proof of erasure, on each of `engines` (none: a skipped placeholder). */
export function erasureProof(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'erasure, proven on a dump of the whole %s database', placeholder: 'the proof of erasure' }, (engine) => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-erasure-'));
    let database: ThrowawayDatabase | undefined;
    let env: NodeJS.ProcessEnv;
    /** Everything the commands printed and the service logged, from the import on. */
    const logs: string[] = [];
    let db: Database | undefined;
    let server: TestServer | undefined;
    let call: Call;
    /** Get person of the people who stay, before the erasures. */
    const before: Record<string, any> = {};

    const cli = async (script: string, ...args: string[]) => {
      const result = await runCommand(script, args, env);
      logs.push(result.stdout, result.stderr);
      return result;
    };
    /** The service on the database, logging everything (trace) into `logs`; PGlite's directory is one process's at a time. */
    const serve = async () => {
      const opened = await openDatabase(engine === 'postgres' ? { databaseUrl: database!.url } : { pgliteDataDir: join(dir, 'db') });
      server = await startTestServer({
        database: { db: opened, drop: () => opened.close() },
        env: { LOG_LEVEL: 'trace', KEEP_ALIVE_TIMEOUT_MS: '50' },
        logger: createLogger('trace', { write: (line: string) => void logs.push(line) }),
      });
      db = opened;
      call = server.call;
    };
    const stop = async () => {
      await server?.close();
      await server?.database.drop();
      server = db = undefined;
    };
    const search = (body: object, token = tokens.all) => call('POST', '/v1/persons/search', { token, body });
    const personIdsFound = async (body: object, token = tokens.all) => {
      const res = await search(body, token);
      expect(res.status).toBe(200);
      return res.body.persons.map((p: { id: string }) => p.id);
    };

    beforeAll(async () => {
      if (engine === 'postgres') {
        database = await throwawayDatabase('postgres');
        env = { ...process.env, DATABASE_URL: database.url, PGLITE_DATA_DIR: '' };
      } else {
        // A migrated directory from the run's template, as the PostgreSQL one is: the import
        // command's first start on a new directory (initdb, seconds) is cli.test.ts's.
        await (await openMigratedDataDir(join(dir, 'db'))).close();
        env = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: join(dir, 'db') };
      }
      const file = join(dir, 'people.ndjson');
      writeFileSync(
        file,
        erasureDataset()
          .map((r) => JSON.stringify(r))
          .join('\n'),
      );
      const imported = await cli('import', file);
      expect(imported.code, imported.stderr).toBe(0);
      // A company set that credential replaced, still held for instances caching the old one.
      const revoked = await cli('credentials', 'revoke-company', ids.credentialKeep, goneCompany);
      expect(revoked.code, revoked.stderr).toBe(0);
    }, 120_000);
    afterAll(async () => {
      await stop();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it(
      'finds everyone before the erasure (so the checks after it can fail)',
      async () => {
        await serve();
        try {
          // As autovacuum would: planner statistics that sample the erased people's values.
          await db!.query(`ANALYZE employees, last_name_pieces, first_name_pieces, last_name_dictionary, first_name_dictionary`);
          expect(findValues(await dumpAll(db!), ['Zephyrinus'])).toMatchObject({ Zephyrinus: expect.arrayContaining(['pg_catalog.pg_statistic']) });
          expect(await personIdsFound({ lastName: 'quorvell' })).toEqual([ids.erasedPerson]);
          expect(await personIdsFound({ lastName: 'Brackenshaw' })).toEqual([ids.goneOnlyPerson, ids.keptPerson]);
          expect(await personIdsFound({ firstName: 'Zephyrinus' }, tokens.gone)).toEqual([ids.goneOnlyPerson]);
          for (const id of [ids.bothPerson, ids.keptPerson]) before[id] = (await call('GET', `/v1/persons/${id}`, { token: tokens.all })).body.person;
          expect(before[ids.bothPerson].employments).toHaveLength(2);
          // A request whose body names someone (refused: unknown field) must not put the name in a log either.
          expect((await search({ lastName: 'Quorvellian', email: 'xanthippa.quorvellian@erase.example' })).status).toBe(400);
        } finally {
          await stop();
        }
        expect(findValues({ logs }, personal)).toEqual({});
      },
      STEP_MS,
    );

    // The refusals are the same on either engine: checked on one of each run's (each
    // command is a process).
    it.runIf(engine === engines.at(-1))(
      'refuses bad input with a clear message and exit 1, changing nothing',
      async () => {
        const notUuid = await cli('erase', 'person', 'not-a-uuid');
        expect([notUuid.code, notUuid.stderr]).toEqual([1, expect.stringMatching(/person id must be a UUID; got "not-a-uuid"/)]);
        const unknown = await cli('erase', 'person', '00000000-0000-4000-8000-000000000000');
        expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/no person 00000000-0000-4000-8000-000000000000 .*nothing was changed/)]);
        const badCompany = await cli('erase', 'company', 'no such company');
        expect([badCompany.code, badCompany.stderr]).toEqual([1, expect.stringMatching(/not a company id/)]);
        const unknownCompany = await cli('erase', 'company', 'nosuchco');
        expect([unknownCompany.code, unknownCompany.stderr]).toEqual([1, expect.stringMatching(/no company nosuchco/)]);
        expect((await cli('erase', 'everyone')).code).toBe(1);
      },
      STEP_MS,
    );

    it(
      'erases a person, reports the unlinked look-alike, and erases that record on its own',
      async () => {
        const dry = await cli('erase', 'person', ids.erasedPerson, '--dry-run', '--json');
        expect(dry.code, dry.stderr).toBe(0);
        const done = await cli('erase', 'person', ids.erasedPerson, '--json');
        expect(done.code, done.stderr).toBe(0);
        const report = JSON.parse(done.stdout) as PersonErasure;
        expect(report).toEqual({
          subject: 'person',
          id: ids.erasedPerson,
          dryRun: false,
          persons: 1,
          employments: 2,
          companies: ['keepco', 'otherco'],
          unlinkedLookalikes: [ids.lookalike],
          auditEntriesKept: 1,
        });
        expect(JSON.parse(dry.stdout)).toEqual({ ...report, dryRun: true });
        const again = await cli('erase', 'person', ids.erasedPerson);
        expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/no person .* already erased/)]);
        const lookalike = await cli('erase', 'employment', ids.lookalike);
        expect(lookalike.code, lookalike.stderr).toBe(0);
        expect(lookalike.stdout).toMatch(new RegExp(`erased employment ${ids.lookalike} in keepco \\(unlinked\\)`));
      },
      STEP_MS,
    );

    it(
      'offboards a company: its employments, the people left with none, its place in every credential',
      async () => {
        const text = await cli('erase', 'company', goneCompany, '--dry-run');
        expect(text.stdout).toMatch(
          /would erase company gonecorp-7731: 1 company, 3 employments \(1 unlinked\), 1 person left with no employment; 1 person kept/,
        );
        expect(text.stdout).toMatch(/credential e1a5e000-0000-4000-8000-0000000000d2 "gone only": keeps no company/);
        const done = await cli('erase', 'company', goneCompany, '--json');
        expect(done.code, done.stderr).toBe(0);
        expect(JSON.parse(done.stdout) as CompanyErasure).toEqual({
          subject: 'company',
          id: goneCompany,
          dryRun: false,
          companies: 1,
          employments: { linked: 2, unlinked: 1 },
          persons: [ids.goneOnlyPerson],
          personsKept: 1,
          credentials: [
            { id: ids.credentialAll, name: 'all three', companiesLeft: ['keepco', 'otherco'] },
            { id: ids.credentialGone, name: 'gone only', companiesLeft: [] },
          ],
          // The set revoke-company replaced, and the two this erasure replaced.
          replacedSetMemberships: 3,
          unlinkedLookalikes: [],
          auditEntriesKept: 2,
        });
        expect((await cli('erase', 'company', goneCompany)).code).toBe(1);
        const listed = await cli('credentials', 'list');
        expect(listed.stdout).toMatch(/all three {2}\[keepco, otherco\]/);
        expect(listed.stdout).toMatch(/gone only {2}\[\]/);
        expect(listed.stdout).toMatch(/keep and gone {2}\[keepco\]/);
      },
      STEP_MS,
    );

    it('rewrites the tables so that erased rows leave their files (erase vacuum)', async () => {
      // Bytes of the embedded database's files, the write-ahead log aside (docs/operating/erasure.md).
      const fileBytes = () =>
        engine === 'pglite'
          ? readdirSync(join(dir, 'db'), { recursive: true, withFileTypes: true })
              .filter((f) => f.isFile() && !join(f.parentPath, f.name).includes('pg_wal'))
              .map((f) => readFileSync(join(f.parentPath, f.name)).toString('latin1'))
              .join('\n')
          : undefined;
      const deadRows = fileBytes();
      // Deleted, not yet rewritten: a dead row's bytes are still on disk.
      if (deadRows !== undefined) expect(deadRows).toContain('Quorvellian');
      const vacuumed = await cli('erase', 'vacuum');
      expect(vacuumed.code, vacuumed.stderr).toBe(0);
      expect(vacuumed.stdout).toMatch(
        /^rewrote employees, persons, last_name_pieces, first_name_pieces, last_name_dictionary, first_name_dictionary, pg_statistic in \d+ ms/,
      );
      const after = fileBytes();
      if (after !== undefined) {
        expect(after).toContain('Ottoline');
        expect(
          findValues({ files: [after] }, [
            'Quorvellian',
            'quorvellian',
            'Zephyrinus',
            'zephyrinus',
            'xanthippa.quorvellian@erase.example',
            '77 Vexilloid Lane',
            'Ulfberhta',
          ]),
        ).toEqual({});
      }
    }, 120_000);

    it(
      'answers exactly for the people who stay, and finds nobody erased',
      async () => {
        await serve();
        expect(await personIdsFound({ lastName: 'quorvell' })).toEqual([]);
        expect(await personIdsFound({ firstName: 'Zephyr' })).toEqual([]);
        expect(await personIdsFound({ phone: '+14155550911' })).toEqual([]);
        expect(await personIdsFound({ lastName: 'Brackenshaw' })).toEqual([ids.keptPerson]);
        for (const id of erasedPersonIds) expect((await call('GET', `/v1/persons/${id}`, { token: tokens.all })).status).toBe(404);
        // Those who stay are answered as before, less the employment in the company that went.
        const keptNow = await call('GET', `/v1/persons/${ids.keptPerson}`, { token: tokens.all });
        expect(keptNow.body.person).toEqual(before[ids.keptPerson]);
        const both = await call('GET', `/v1/persons/${ids.bothPerson}`, { token: tokens.all });
        expect(both.body.person).toEqual({
          ...before[ids.bothPerson],
          employments: before[ids.bothPerson].employments.filter((e: any) => e.companyId !== goneCompany),
        });
        expect(both.body.person.employments.map((e: any) => [e.id, e.contact.email])).toEqual([[ids.bothAtKeep, 'perpetua@keep.example']]);
        expect((await search({ lastName: 'Brackenshaw' }, tokens.keep)).body.persons).toEqual([before[ids.keptPerson]]);
        // The credential whose only company went still authenticates, and sees nobody.
        const none = await search({}, tokens.gone);
        expect([none.status, none.body.pagination.total]).toEqual([200, 0]);
        expect((await call('GET', `/v1/persons/${ids.keptPerson}`, { token: tokens.gone })).status).toBe(404);
        expect((await call('GET', `/v1/companies/${goneCompany}/hello`, { token: tokens.all })).status).toBe(403);
        const { kept: derived, rebuilt } = await derivedDataAndRebuild(db!);
        expect(derived).toEqual(rebuilt);
        expect(await db!.query(`SELECT folded FROM last_name_dictionary WHERE folded IN ('brackenshaw', 'quorvellian') ORDER BY 1`)).toEqual([
          { folded: 'brackenshaw' },
        ]);
        expect(await db!.query(`SELECT folded FROM first_name_dictionary WHERE folded IN ('zephyrinus', 'ottoline', 'xanthippa') ORDER BY 1`)).toEqual([
          { folded: 'ottoline' },
        ]);
      },
      STEP_MS,
    );

    it(
      'leaves none of the erased values in any table, the people who stay whole, and the erased ids in the access audit alone',
      async () => {
        const dump = await dumpAll(db!);
        expect(Object.keys(dump)).toEqual(
          expect.arrayContaining(['public.employees', 'public.last_name_pieces', 'public.people_by_credential_day', 'public.access_audit']),
        );
        expect(findValues(dump, erasedValues)).toEqual({});
        // Kept by design, ids only, until their retention ends: who accessed them (the access
        // audit), and what changed (the change feed: the records' ids, the company's id and
        // the kinds, docs/decisions/0022-change-feed.md), nowhere else.
        expect(findValues(dump, [goneCompany, ...erasedIds], { except: ['public.changes'] })).toEqual({});
        expect(findValues(dump, erasedPersonIds, { except: ['public.access_audit', 'public.changes'] })).toEqual({});
        expect(findValues(dump, erasedPersonIds)).toEqual({
          [ids.erasedPerson]: ['public.access_audit', 'public.changes'],
          [ids.goneOnlyPerson]: ['public.access_audit', 'public.changes'],
        });
        expect(Object.keys(findValues(dump, kept)).sort()).toEqual([...kept].sort());
      },
      STEP_MS,
    );

    it.runIf(engine === 'postgres')(
      'leaves none of them in pg_dump --data-only either',
      async () => {
        if (!existsSync(PG_DUMP)) {
          console.warn(`${PG_DUMP} is not installed: the pg_dump check is skipped (the catalog dump above ran)`);
          return;
        }
        const dumped = execFileSync(PG_DUMP, ['--data-only', '--no-owner', `--dbname=${database!.url}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
        expect(dumped).toContain('ottoline@keep.example');
        expect(findValues({ pg_dump: [dumped] }, erasedValues)).toEqual({});
      },
      STEP_MS,
    );

    it('never had any of the erased values in the service log or the commands output', async () => {
      await stop();
      expect(logs.join('').length).toBeGreaterThan(1000);
      expect(logs.join('')).toMatch(/"route":"searchPersons"/);
      expect(findValues({ logs }, personal)).toEqual({});
    });
  });
}
