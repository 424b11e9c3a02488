// The bench's change-feed helpers (bench/imports/feed.ts) on a throwaway PostgreSQL: the
// page read it times answers full pages, and an import with the feed off records nothing,
// leaves the triggers on again and the feed marked for re-sync; a run killed with the feed
// off has it turned back on by the next.
import { expect, it } from 'vitest';
import { enableFeedLeftOff, measureFeedReads, withFeedOff } from '../../bench/imports/feed.js';
import { importRecords } from '../../server/importing/index.js';
import { changesAfter, feedHead } from '../feed/expectedChanges.js';
import { employee, ids, smallDataset } from '../fixtures/small.js';
import { describeOnEngines, engines, useThrowawayDatabase } from '../helpers/databases.js';

describeOnEngines(
  engines.filter((e) => e === 'postgres'),
  { perEngine: "the bench's change-feed helpers on %s", placeholder: "the bench's change-feed helpers (PostgreSQL)" },
  (engine) => {
    const database = useThrowawayDatabase(engine, smallDataset);

    it('times full pages of the busiest company', async () => {
      const reads = await measureFeedReads(database.url!, { samples: 10, limit: 2 });
      expect(reads).toMatchObject({ companyChanges: 3, limit: 2, samples: 10 });
      expect(['acme-corp', 'secret-co']).toContain(reads.companyId);
      expect(reads.p99Ms).toBeGreaterThan(0);
    });

    it('imports with the feed off: nothing recorded, the triggers on again after, followers told to re-sync', async () => {
      const head = await feedHead(database.db);
      await withFeedOff(database.url!, () =>
        importRecords(database.db, [employee({ id: ids.unlinked, companyId: 'acme-corp', personId: null, lastName: 'Off' })], 'US'),
      );
      expect(await changesAfter(database.db, head)).toEqual([]);
      const [pruned] = await database.db.query<{ through: string }>('SELECT through::text FROM change_feed_pruned');
      expect(BigInt(pruned!.through)).toBe(head);
      await importRecords(database.db, [employee({ id: ids.unlinked, companyId: 'acme-corp', personId: null, lastName: 'On' })], 'US');
      expect((await changesAfter(database.db, head)).map((c) => c.kind)).toEqual(['employee.updated']);
    });

    it('turns the feed back on where a killed run left it off, and says so once', async () => {
      const head = await feedHead(database.db);
      await database.db.query('ALTER TABLE employees DISABLE TRIGGER employees_feed_updated');
      expect(await enableFeedLeftOff(database.db)).toBe(true);
      expect(await enableFeedLeftOff(database.db)).toBe(false);
      const [pruned] = await database.db.query<{ through: string }>('SELECT through::text FROM change_feed_pruned');
      expect(BigInt(pruned!.through)).toBe(head);
      await importRecords(database.db, [employee({ id: ids.unlinked, companyId: 'acme-corp', personId: null, lastName: 'Back' })], 'US');
      expect((await changesAfter(database.db, head)).map((c) => c.kind)).toEqual(['employee.updated']);
    });
  },
);
