// `npm run webhooks`, run as an operator runs it: as processes, on a persistent embedded
// database and on PostgreSQL. add prints the id and the secret once, list never shows a
// secret, rotate-secret overlaps, deliveries and replay follow what a worker did, remove
// ends it. Mistakes: the command line's exit 1 before any database is opened; what the
// data refuses (a target that is not public https, an unknown company or endpoint, a
// position the feed does not hold) exit 2 and change nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { encodeChangeCursor } from '../../server/domain/changeCursor.js';
import { importRecords } from '../../server/importing/index.js';
import { smallDataset } from '../fixtures/small.js';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine, openMigratedDataDir, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { WebhookReceiver } from '../helpers/webhookReceiver.js';
import { addEmployments, drain, feedPositions, TestClock, testWorker } from '../webhooks/worker.js';

const SECRET = /signing secret \(shown once, store it now\): (whsec_[A-Za-z0-9+/]+=*)/;
const ID = '00000000-0000-4000-8000-0000000000ff';

/** The webhook commands on each of `engines` (none: a skipped placeholder). */
export function webhookCommands(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'webhook commands on %s', placeholder: 'the webhook commands' }, (engine) => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-webhooks-'));
    let database: ThrowawayDatabase | undefined;
    let env: NodeJS.ProcessEnv;
    const receiver = new WebhookReceiver();
    beforeAll(async () => {
      await receiver.start();
      if (engine === 'postgres') {
        database = await throwawayDatabase('postgres');
        await importRecords(database.db, smallDataset(), 'US');
        env = { ...process.env, DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
      } else {
        const db = await openMigratedDataDir(join(dir, 'db'));
        await migrate(db);
        await importRecords(db, smallDataset(), 'US');
        await db.close();
        env = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: join(dir, 'db'), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
      }
    }, 60_000);
    afterAll(async () => {
      await receiver.stop();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const webhooks = (...args: string[]) => runCommand('webhooks', args, env);
    /** The database in this process while no command runs (an embedded one has one process at a time). */
    async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
      if (database) return work(database.db);
      const db = await openDatabase({ pgliteDataDir: join(dir, 'db') });
      try {
        return await work(db);
      } finally {
        await db.close();
      }
    }

    it('adds, lists, rotates, follows deliveries, replays and removes', async () => {
      const added = await webhooks('add', receiver.url, '--companies', 'acme-corp,globex', '--events', 'employee.created,employee.deleted');
      expect(added.code, added.stderr).toBe(0);
      const id = /added endpoint ([0-9a-f-]{36}) -> /.exec(added.stdout)![1]!;
      const secret = SECRET.exec(added.stdout)![1]!;
      expect(added.stdout).toContain(`-> ${receiver.url} for acme-corp, globex, kinds employee.created, employee.deleted\n`);

      const rotated = await webhooks('rotate-secret', id, '--overlap', '2h');
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(rotated.stdout).toMatch(/the previous secret also signs until 20\d\d-/);
      const next = SECRET.exec(rotated.stdout)![1]!;
      expect(next).not.toBe(secret);

      const listed = await webhooks('list');
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(
        new RegExp(
          `^${id}  active    ${receiver.url}  \\[acme-corp, globex\\]  kinds employee.created, employee.deleted\\n    delivered through the start|^${id}  active`,
        ),
      );
      expect(listed.stdout).toMatch(/previous secret also signs until 20\d\d-/);
      for (const s of [secret, next]) expect(listed.stdout + listed.stderr).not.toContain(s.slice(6, 30));

      const none = await webhooks('deliveries', id);
      expect(none.code, none.stderr).toBe(0);
      expect(none.stdout).toMatch(/no delivery to .* attempted yet/);

      // A worker delivers (in this process), and the commands see what it did.
      receiver.secrets = [secret, next];
      const positions = await withDatabase(async (db) => {
        const start = (await db.query<{ p: string }>('SELECT delivered_position::text AS p FROM webhook_endpoints WHERE id = $1', [id]))[0]!.p;
        await addEmployments(db, 'acme-corp', 3);
        expect(await drain(testWorker(db, new TestClock(Date.now() + 1_000)).worker)).toBe(1);
        return feedPositions(db, ['acme-corp', 'globex'], start);
      });
      expect(receiver.accepted.flatMap((r) => r.changes.map((c) => c.position))).toEqual(positions);
      expect(receiver.accepted[0]!.signatures).toHaveLength(2);
      const deliveries = await webhooks('deliveries', id);
      expect(deliveries.stdout).toMatch(
        new RegExp(`^20\\S+  msg_[0-9a-f]{32}  attempt 1  delivered \\(HTTP 204\\)  3 changes after \\S+ through ${positions[2]}  \\d+ ms\\n$`),
      );

      const replayed = await webhooks('replay', id, '--from', positions[0]!);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stdout).toContain(`delivers again the changes after ${positions[0]}`);
      await withDatabase(async (db) => {
        expect(await drain(testWorker(db, new TestClock(Date.now() + 1_000)).worker)).toBe(1);
      });
      expect(receiver.accepted.at(-1)!.changes.map((c) => c.position)).toEqual(positions.slice(1));

      const removed = await webhooks('remove', id);
      expect(removed.code, removed.stderr).toBe(0);
      const again = await webhooks('remove', id);
      expect(again.code).toBe(2);
      expect(again.stderr).toBe(`unknown endpoint ${id} (npm run webhooks -- list shows them); nothing was changed\n`);
    }, 120_000);

    it('refuses what the data does not allow, exit 2, changing nothing', async () => {
      const before = (await webhooks('list')).stdout;
      const cases: [string[], RegExp, NodeJS.ProcessEnv?][] = [
        [['add', 'http://hooks.example.com/x', '--companies', 'acme-corp'], /must be an https:\/\/ URL; got http:/, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '' }],
        [['add', 'https://127.0.0.1/x', '--companies', 'acme-corp'], /127\.0\.0\.1 is a loopback address/, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '' }],
        [['add', 'https://[::ffff:192.168.0.10]/x', '--companies', 'acme-corp'], /private \(as IPv4 inside IPv6\)/, { WEBHOOK_ALLOW_PRIVATE_TARGETS: '' }],
        [['add', receiver.url, '--companies', 'acme-corp,no-such-co'], /^unknown companies: no-such-co \(import them first\); nothing was changed\n$/],
        [['replay', ID, '--from', 'ZjE'], /^unknown endpoint/],
        [['enable', ID], /^unknown endpoint/],
        [['rotate-secret', ID], /^unknown endpoint/],
        [['deliveries', ID], /^unknown endpoint/],
      ];
      for (const [args, problem, extra] of cases) {
        const refused = await runCommand('webhooks', args, { ...env, ...extra });
        expect(refused.code, `${args.join(' ')}: ${refused.stderr}`).toBe(2);
        expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(refused.stderr).toMatch(problem);
      }
      const added = await webhooks('add', receiver.url, '--companies', 'acme-corp');
      const id = /added endpoint ([0-9a-f-]{36})/.exec(added.stdout)![1]!;
      const twice = await webhooks('add', receiver.url, '--companies', 'globex');
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain(`is already endpoint ${id}: remove it first`);
      const active = await webhooks('enable', id);
      expect([active.code, active.stderr]).toEqual([2, `endpoint ${id} is not disabled; nothing was changed\n`]);
      const beyond = await webhooks('replay', id, '--from', encodeChangeCursor(1_000_000_000n));
      expect(beyond.code).toBe(2);
      expect(beyond.stderr).toMatch(/--from is past the last change the feed holds/);
      expect((await webhooks('remove', id)).code).toBe(0);
      expect((await webhooks('list')).stdout).toBe(before);
    }, 120_000);

    it('refuses WEBHOOK_ALLOW_PRIVATE_TARGETS in production, as a configuration error', async () => {
      const refused = await runCommand('webhooks', ['list'], { ...env, APP_ENV: 'production' });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        'configuration error: WEBHOOK_ALLOW_PRIVATE_TARGETS cannot be true in production: webhooks go to public https addresses only there\n',
      );
    });
  });
}

/** The command lines refused before any database is opened (none is configured): exit 1, one line first. */
export function webhookArguments(): void {
  const noDatabase = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: '' };
  describe('webhook command lines refused before a database is opened', () => {
    it.concurrent.each([
      [['add', 'https://hooks.example.com/x'], 'add needs --companies <id,...>: the companies whose changes the endpoint receives'],
      [['add', 'https://hooks.example.com/x', '--companies', 'acme corp'], '--companies: not a company id: "acme corp" (^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$)'],
      [
        ['add', 'https://hooks.example.com/x', '--companies', 'acme-corp', '--events', 'employee.moved'],
        '--events: unknown kind "employee.moved" (one of employee.created, employee.updated, employee.deleted, employee.linked, employee.unlinked, person.updated, person.deleted, person.erased, company.deleted)',
      ],
      [['add', 'https://hooks.example.com/x', '--companies', 'acme-corp', '--from', 'ZjE'], '--from belongs to replay'],
      [['rotate-secret', ID, '--overlap', '8d'], '--overlap may be at most 7d; got "8d"'],
      [['rotate-secret', ID, '--overlap', 'soon'], '--overlap: "soon" is not a duration (use e.g. 30m, 24h, 7d, or 0)'],
      [['replay', ID], 'replay needs --from <position>: a change position or a feed page next, as the feed gives it'],
      [['replay', ID, '--from', '12'], '--from: "12" is not a feed position (a change\'s position or a page\'s next, as the feed gives it)'],
      [['remove', 'not-an-id'], 'endpoint id must be a UUID, as npm run webhooks -- list shows it; got "not-an-id"'],
      [['deliveries', ID, '--limit', '0'], '--limit must be a whole number from 1 to 1000; got "0"'],
      [['list', 'all'], 'list takes 0 arguments; unexpected "all"'],
      [['rotate'], 'unknown command "rotate" (one of add, list, remove, rotate-secret, deliveries, replay, enable)'],
    ])('%j', async (args, problem) => {
      const refused = await runCommand('webhooks', args, noDatabase);
      expect(refused.code).toBe(1);
      expect(refused.stderr.split('\n')[0]).toBe(problem);
      expect(refused.stdout).toBe('');
    });
  });
}
