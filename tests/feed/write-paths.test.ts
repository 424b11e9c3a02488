// Every write path records exactly the changes expected, once, in order, on each engine:
// the initial load, every kind of import record (snapshots' deletions among them), an
// unchanged re-import (nothing), erasure of a person, a company and one employment, a
// plain SQL statement, an invitation's expiry, and pruning. What is expected is worked
// out apart from the triggers (expectedChanges.ts): the data before and after, side by side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Housekeeping } from '../../server/access/housekeeping.js';
import { recordTimeChanges } from '../../server/db/feed/upkeep.js';
import { ImportRejected, importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { createLogger } from '../../server/observability/logger.js';
import { eraseCompany, eraseEmployment, erasePerson } from '../../server/privacy/erasure.js';
import { employee, ids, smallDataset, unlinkedRecords } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { asMultiset, changesAfter, dataState, expectedChanges, feedHead, perRecordOrder } from './expectedChanges.js';

const other = {
  person: '6a0e4c1b-8d2f-4a3e-9b5c-7d1e2f3a4b5c',
  employee: '7b1f5d2c-9e3a-4b4f-8c6d-8e2f3a4b5c6d',
};

describe.each(engines)('the change feed records every write path on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
  });
  afterAll(() => database?.drop());
  const db = () => database.db;
  const apply = (records: ImportRecord[], snapshotCompanies?: string[]) => importRecords(db(), records, { defaultPhoneRegion: 'US', snapshotCompanies });

  /** Runs `write`; the feed holds exactly what the data's before and after say, in positions right after the head, and `kinds` is what that is. */
  async function expectWrite(write: () => Promise<unknown>, kinds: string[], personGone: 'person.deleted' | 'person.erased' = 'person.deleted') {
    const before = await dataState(db());
    const head = await feedHead(db());
    await write();
    const recorded = await changesAfter(db(), head);
    const expected = expectedChanges(before, await dataState(db()), personGone);
    expect(asMultiset(recorded)).toEqual(asMultiset(expected));
    expect(recorded.map((c) => c.kind).sort()).toEqual([...kinds].sort());
    // One writer: its positions follow the head, one by one, with no gap and no repeat.
    expect(recorded.map((c) => c.position)).toEqual(recorded.map((_, i) => head + BigInt(i + 1)));
    for (const [employeeId, order] of perRecordOrder(expected)) expect(perRecordOrder(recorded).get(employeeId), employeeId).toEqual(order);
    return recorded;
  }

  it('records the initial load (the bulk upkeep) as one employee.created per employment', async () => {
    const recorded = await expectWrite(() => apply([...smallDataset(), ...unlinkedRecords()]), Array(9).fill('employee.created'));
    expect(recorded.filter((c) => c.companyId === 'acme-corp')).toHaveLength(4);
  });

  it('records nothing for a file restated unchanged, and nothing for a refused or dry-run file', async () => {
    await expectWrite(() => apply([...smallDataset(), ...unlinkedRecords()]), []);
    await expectWrite(() => expect(apply([{ type: 'delete', record: 'person', id: ids.ana }])).rejects.toBeInstanceOf(ImportRejected), []);
    await expectWrite(() => importRecords(db(), [{ type: 'delete', record: 'employee', id: ids.anaAcme }], { defaultPhoneRegion: 'US', dryRun: true }), []);
  });

  it('records a value changed, and a per-employment record added, replaced and deleted, as employee.updated', async () => {
    await expectWrite(
      () => apply([employee({ id: ids.unlinked, companyId: 'acme-corp', personId: null, firstName: 'Émile', lastName: 'Durant', phone: '(415) 555-0132' })]),
      ['employee.updated'],
    );
    await expectWrite(() => apply([{ type: 'membership', employeeId: ids.anaAcme, status: 'active' }]), ['employee.updated']);
    await expectWrite(() => apply([{ type: 'membership', employeeId: ids.anaAcme, status: 'revoked' }]), ['employee.updated']);
    await expectWrite(() => apply([{ type: 'delete', record: 'membership', employeeId: ids.anaAcme }]), ['employee.updated']);
    await expectWrite(
      () =>
        apply([
          { type: 'coverage', employeeId: ids.emileGlobex, status: 'enrolled', startsAt: '2024-04-01T00:00:00.000Z', endsAt: null, planTier: null },
          { type: 'participation', employeeId: ids.emileAcme, decision: 'opt_out', decidedAt: '2025-06-15T11:05:00.000Z' },
        ]),
      ['employee.updated', 'employee.updated'],
    );
  });

  it('records links: linked, unlinked, a relink as unlinked then linked, a move as deleted there and created here', async () => {
    const base = { firstName: 'Émile', lastName: 'Durant', phone: '(415) 555-0132' };
    await expectWrite(() => apply([employee({ id: ids.unlinked, companyId: 'acme-corp', personId: ids.ana, ...base })]), ['employee.linked']);
    await expectWrite(
      () => apply([employee({ id: ids.unlinked, companyId: 'acme-corp', personId: ids.emile, ...base })]),
      ['employee.unlinked', 'employee.linked'],
    );
    await expectWrite(
      () => apply([employee({ id: ids.unlinked, companyId: 'acme-corp', personId: null, ...base, lastName: 'Durand' })]),
      ['employee.updated', 'employee.unlinked'],
    );
    await expectWrite(() => apply([employee({ id: ids.unlinked, companyId: 'globex', personId: ids.ana, ...base })]), ['employee.deleted', 'employee.created']);
  });

  it("records a person's new times as person.updated in each company they are employed in", async () => {
    await expectWrite(
      () => apply([{ type: 'person', id: ids.emile, createdAt: '2024-03-02T09:15:00.000Z', updatedAt: '2026-02-01T00:00:00.000Z' }]),
      ['person.updated', 'person.updated', 'person.updated'],
    );
    // Re-dated in the file that moves their employment: recorded where they were employed
    // when the person was written (the import writes persons first); the move follows.
    await expectWrite(
      () =>
        apply([
          { type: 'person', id: ids.ana, createdAt: '2023-11-14T08:00:00.000Z', updatedAt: '2026-02-02T00:00:00.000Z' },
          employee({
            id: ids.anaAcme,
            companyId: 'globex',
            personId: ids.ana,
            firstName: 'Ana',
            lastName: 'Durán',
            phone: '312-555-0187',
            createdAt: '2023-11-14T08:00:00.000Z',
          }),
        ]),
      // (ana is in acme-corp, and in globex by ids.unlinked, relinked to her above.)
      ['person.updated', 'person.updated', 'employee.deleted', 'employee.created'],
    );
    await expectWrite(
      () =>
        apply([
          employee({
            id: ids.anaAcme,
            companyId: 'acme-corp',
            personId: ids.ana,
            firstName: 'Ana',
            lastName: 'Durán',
            phone: '312-555-0187',
            createdAt: '2023-11-14T08:00:00.000Z',
          }),
        ]),
      ['employee.deleted', 'employee.created'],
    );
    // A new person with no employment yet is in no company's feed.
    await expectWrite(() => apply([{ type: 'person', id: other.person, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' }]), []);
  });

  it("records deletions: an employment, a person with their employment in the same file, a snapshot's omissions", async () => {
    await expectWrite(() => apply([employee({ id: other.employee, companyId: 'acme-corp', personId: other.person })]), ['employee.created']);
    await expectWrite(
      () =>
        apply([
          { type: 'delete', record: 'employee', id: other.employee },
          { type: 'delete', record: 'person', id: other.person },
        ]),
      ['employee.deleted', 'person.deleted'],
    );
    // globex holds emileGlobex, unlinkedGlobex and (moved) unlinked: a snapshot restating one.
    const kept = employee({
      id: ids.unlinkedGlobex,
      companyId: 'globex',
      personId: null,
      firstName: 'Emile',
      lastName: 'Durand',
      phone: '+1 212 555 0199',
      createdAt: '2024-01-01T00:00:00.000Z',
    });
    await expectWrite(() => apply([kept], ['globex']), ['employee.deleted', 'employee.deleted']);
  });

  it('records an erasure of an employment, of a person (person.erased), of a company (company.deleted last)', async () => {
    await expectWrite(() => eraseEmployment(db(), ids.unlinkedAcmeLater), ['employee.deleted']);
    await expectWrite(() => erasePerson(db(), ids.ana, { dryRun: true }), []);
    await expectWrite(() => erasePerson(db(), ids.ana), ['employee.deleted', 'person.erased'], 'person.erased');
    const recorded = await expectWrite(
      () => eraseCompany(db(), 'secret-co'),
      ['employee.deleted', 'employee.deleted', 'employee.deleted', 'person.erased', 'company.deleted'],
      'person.erased',
    );
    // hidden had secret-co alone: erased with it; emile keeps acme-corp.
    expect(recorded.find((c) => c.kind === 'person.erased')?.personId).toBe(ids.hidden);
  });

  it('records plain SQL writes the same way (triggers, not the import)', async () => {
    await expectWrite(() => db().query(`UPDATE employees SET email = 'plain@example.com'`), ['employee.updated', 'employee.updated']);
    await expectWrite(() => db().query(`UPDATE employees SET email = email`), []);
  });

  it("records an invitation's expiry, once, as employee.updated when the clock passes it", async () => {
    const soon = new Date(Date.now() + 1_500).toISOString();
    await expectWrite(
      () => apply([{ type: 'invitation', employeeId: ids.emileAcme, status: 'pending', invitedAt: '2025-01-01T00:00:00.000Z', expiresAt: soon }]),
      ['employee.updated'],
    );
    await expectWrite(() => recordTimeChanges(db()), []);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(soon) - Date.now() + 20));
    const head = await feedHead(db());
    expect(await recordTimeChanges(db())).toBe(1);
    expect((await changesAfter(db(), head)).map((c) => [c.kind, c.employeeId])).toEqual([['employee.updated', ids.emileAcme]]);
    expect(await recordTimeChanges(db())).toBe(0);
  });

  it('prunes changes older than the retention and raises the pruned mark to the last one pruned', async () => {
    const head = await feedHead(db());
    await db().query(`UPDATE changes SET changed_at = now() - interval '31 days' WHERE position <= $1`, [(head - 3n).toString()]);
    const result = await new Housekeeping(db(), createLogger('silent'), 365, 30 * 86_400_000).runOnce();
    expect(result.changesPruned).toBeGreaterThan(0);
    const [row] = await db().query<{ through: string; oldest: string }>(
      'SELECT through::text, (SELECT min(position) FROM changes)::text AS oldest FROM change_feed_pruned',
    );
    expect(BigInt(row!.through)).toBe(head - 3n);
    expect(BigInt(row!.oldest)).toBe(head - 2n);
    expect((await new Housekeeping(db(), createLogger('silent'), 365, 30 * 86_400_000).runOnce()).changesPruned).toBe(0);
  });
});
