// Concurrent writers on PostgreSQL while a follower polls the feed: imports (new, changed,
// relinked, moved and deleted employments, snapshots), erasures and plain SQL statements
// from several connections at once, and a reader following both companies over HTTP in
// small pages the whole time. Positions are handed out in commit order (migration 007), so
// the follower never skips a change that commits later with a lower position: at the end
// its mirror equals the database, and it read each position once, in increasing order.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Random } from '../../server/dataset/random.js';
import { decodeChangeCursor } from '../../server/domain/changeCursor.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { eraseEmployment } from '../../server/privacy/erasure.js';
import { employee, ids, smallDataset, tokens } from '../fixtures/small.js';
import { describeOnEngines, engines } from '../helpers/databases.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FeedMirror } from './feedMirror.js';

const companies = new Set(['acme-corp', 'globex']);
const WRITERS = 4;
const WRITES_EACH = 25;

describeOnEngines(
  engines.filter((e) => e === 'postgres'),
  { perEngine: 'a follower racing concurrent writers on %s', placeholder: 'a follower racing concurrent writers (PostgreSQL)' },
  (engine) => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ engine, records: smallDataset() });
    });
    afterAll(() => server?.close());

    it('never skips a change: the mirror kept from the feed equals the database', async () => {
      const db = server.database.db;
      const people = [ids.emile, ids.ana];
      let writing = true;

      async function writer(w: number): Promise<void> {
        const r = new Random(1000 + w);
        const mine: string[] = [];
        for (let n = 0; n < WRITES_EACH; n++) {
          const choice = r.int(0, 9);
          const companyId = r.pick([...companies]);
          if (choice <= 3 || mine.length < 2) {
            const id = r.uuid();
            mine.push(id);
            await importRecords(db, [employee({ id, companyId, personId: r.chance(0.7) ? r.pick(people) : null, lastName: `W${w}-${n}` })], 'US');
          } else if (choice <= 5) {
            // Changed, relinked or moved in one file with a per-employment record.
            const id = r.pick(mine);
            const file: ImportRecord[] = [
              employee({ id, companyId, personId: r.chance(0.5) ? r.pick(people) : null, lastName: `W${w}-${n}` }),
              { type: 'membership', employeeId: id, status: r.pick(['active', 'revoked'] as const) },
            ];
            await importRecords(db, file, 'US');
          } else if (choice === 6) {
            const id = mine.splice(r.int(0, mine.length - 1), 1)[0]!;
            await importRecords(db, [{ type: 'delete', record: 'employee', id }], 'US');
          } else if (choice === 7) {
            const id = mine.splice(r.int(0, mine.length - 1), 1)[0]!;
            await eraseEmployment(db, id).catch(() => {}); // (moved and erased by another writer's plain SQL meanwhile: fine)
          } else {
            await db.query(`UPDATE employees SET email = $1 WHERE id = ANY ($2::uuid[])`, [`w${w}n${n}@example.com`, mine.slice(0, 3)]);
          }
        }
      }

      const mirror = new FeedMirror(server.call, tokens.both, 7);
      const reader = (async () => {
        while (writing) await mirror.follow(companies);
      })();
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      writing = false;
      await reader;
      await mirror.follow(companies);

      const stored = await db.query<{ id: string; company_id: string; person_id: string | null }>(
        `SELECT id::text, company_id, person_id::text FROM employees WHERE company_id = ANY ($1::text[]) ORDER BY id`,
        [[...companies]],
      );
      expect(stored.length).toBeGreaterThan(WRITERS * 5);
      expect(mirror.of(companies)).toEqual(stored.map((e) => [e.id, { companyId: e.company_id, personId: e.person_id }]));
      for (const companyId of companies) {
        const positions = (mirror.seen.get(companyId) ?? []).map((c) => decodeChangeCursor(c.position)!);
        expect(
          positions.every((p, i) => i === 0 || p > positions[i - 1]!),
          `${companyId}: each position once, increasing`,
        ).toBe(true);
        const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM changes WHERE company_id = $1', [companyId]);
        expect(positions.length, companyId).toBe(count!.n);
      }
    }, 120_000);
  },
);
