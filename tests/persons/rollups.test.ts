// The people rollups (server/db/derived) behind listing totals and deep pages: kept across
// imports of any order and plain-SQL moves and deletes, equal at every step to a count
// from scratch, and giving the same pages and totals as reading every matching employment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedDataAndRebuild } from '../../server/db/derived/index.js';
import type { Database } from '../../server/db/engines/database.js';
import { findPersons } from '../../server/db/reads/queries.js';
import { insertCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { readsEverything } from '../fixtures/credentials.js';
import { employee as fixtureEmployee } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

const companies = ['co-a', 'co-b', 'co-c'];
const instants = [
  '2024-01-01T00:00:00.000Z',
  '2024-01-01T09:30:00.000Z',
  '2024-01-01T23:59:59.999Z',
  '2024-01-02T00:00:00.000Z',
  '2024-01-02T12:00:00.000Z',
  '2024-01-03T00:00:00.001Z',
  '2024-01-05T18:00:00.000Z',
  '2024-02-01T00:00:00.000Z',
];
const ranges: [string | undefined, string | undefined][] = [
  [undefined, undefined],
  ['2024-01-01T09:30:00.000Z', undefined],
  [undefined, '2024-01-02T12:00:00.000Z'],
  ['2024-01-01T00:00:00.000Z', '2024-01-03T00:00:00.000Z'],
  ['2024-01-01T12:00:00.000Z', '2024-01-05T19:00:00.000Z'],
  ['2024-01-02T06:00:00.000Z', '2024-01-02T18:00:00.000Z'],
  ['2024-01-02T00:00:00.000+05:00', '2024-01-03T00:00:00.000-05:00'],
  ['2024-01-04T00:00:00.000Z', '2024-01-01T00:00:00.000Z'],
];

let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;
const person = (createdAt: string) => ({ type: 'person' as const, id: uuid(), createdAt, updatedAt: createdAt });
const employee = (personId: string | null, companyId: string) =>
  fixtureEmployee({ id: uuid(), companyId, personId, firstName: 'Ada', lastName: 'Lovelace', createdAt: instants[0]!, updatedAt: instants[0]! });

/** A batch of people over the instants, each employed in one or two companies (some twice in one). */
function batch(people: number, offset: number): { records: ImportRecord[]; personIds: string[] } {
  const records: ImportRecord[] = [];
  const personIds: string[] = [];
  for (let i = 0; i < people; i++) {
    const p = person(instants[(i + offset) % instants.length]!);
    records.push(p);
    personIds.push(p.id);
    records.push(employee(p.id, companies[(i + offset) % 3]!));
    if (i % 3 === 0) records.push(employee(p.id, companies[(i + offset + 1) % 3]!));
    if (i % 7 === 0) records.push(employee(p.id, companies[(i + offset) % 3]!));
  }
  records.push(employee(null, 'co-a'));
  return { records, personIds };
}

describe.each(engines)('people rollups on %s', (engine) => {
  let database: ThrowawayDatabase;
  let db: Database;
  let credentialAB: string;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    db = database.db;
    await importRecords(
      db,
      companies.map((id) => ({ type: 'company', id, name: id })),
      'US',
    );
    credentialAB = await insertCredential(db, { name: 'a and b', tokenHash: hashToken('plk_ab'), companies: ['co-a', 'co-b'], ...readsEverything });
  });
  afterAll(() => database?.drop());

  const snapshot = async () => ({
    companies: await db.query('SELECT company_id, day::text, people FROM people_by_company_day ORDER BY 1, 2'),
    credentials: await db.query('SELECT credential_id::text, day::text, people FROM people_by_credential_day ORDER BY 1, 2'),
  });
  const expectRollupsEqualACountFromScratch = async () => {
    const { kept, rebuilt } = await derivedDataAndRebuild(db);
    expect(kept).toEqual(rebuilt);
    expect(kept.people_by_company_day.length).toBeGreaterThan(0);
  };

  const expectRollupsEqualACountFromScratchWhenEmpty = async () => {
    const { kept, rebuilt } = await derivedDataAndRebuild(db);
    expect(kept).toEqual(rebuilt);
  };

  /** Every matching person, in page order, read from the employments themselves. */
  const everyMatch = async (authorized: string[], from?: string, before?: string) =>
    (
      await db.query<{ id: string }>(
        `SELECT id FROM (SELECT DISTINCT person_created_at, person_id::text AS id FROM employees
        WHERE person_id IS NOT NULL AND company_id = ANY($1) AND ($2::timestamptz IS NULL OR person_created_at >= $2) AND ($3::timestamptz IS NULL OR person_created_at < $3)) m
        ORDER BY person_created_at, id`,
        [authorized, from ?? null, before ?? null],
      )
    ).map((r) => r.id);

  const expectListingsAgree = async () => {
    const credentials = [
      { id: credentialAB, authorized: ['co-a', 'co-b'], inlineCompaniesMax: 200 },
      { id: credentialAB, authorized: ['co-a', 'co-b'], inlineCompaniesMax: 1 },
      { id: uuid(), authorized: ['co-c'], inlineCompaniesMax: 200 },
    ];
    for (const { id, authorized, inlineCompaniesMax } of credentials) {
      for (const [from, before] of ranges) {
        const expected = await everyMatch(authorized, from, before);
        for (const offset of [0, 3, 7, expected.length - 1, expected.length + 2].filter((o) => o >= 0)) {
          const page = await findPersons(db, {
            ...everyFieldScope,
            credentialId: id,
            authorizedCompanies: authorized,
            inlineCompaniesMax,
            createdFrom: from,
            createdBefore: before,
            limit: 4,
            offset,
          });
          const where = `${authorized} ${from}..${before} offset ${offset} (inline up to ${inlineCompaniesMax})`;
          expect(page.total, where).toBe(expected.length);
          expect(
            page.items.map((item) => item.id),
            where,
          ).toEqual(expected.slice(offset, offset + 4));
        }
      }
    }
  };

  it('count what a count from scratch counts, import after import, and list what the employments hold', async () => {
    const first = batch(30, 0);
    await importRecords(db, first.records, 'US');
    await expectRollupsEqualACountFromScratch();
    await expectListingsAgree();

    // Existing people join companies they were in and were not in; new people arrive.
    const [p0, p1, p2] = first.personIds;
    await importRecords(db, [employee(p0!, 'co-a'), employee(p1!, 'co-c'), employee(p2!, 'co-b'), employee(p2!, 'co-b'), ...batch(12, 5).records], 'US');
    await expectRollupsEqualACountFromScratch();
    await expectListingsAgree();
  });

  it('counts a credential created after its companies were filled', async () => {
    const late = await insertCredential(db, { name: 'every company', tokenHash: hashToken('plk_every'), companies, ...readsEverything });
    const expected = await everyMatch(companies);
    const page = await findPersons(db, {
      ...everyFieldScope,
      credentialId: late,
      authorizedCompanies: companies,
      inlineCompaniesMax: 200,
      limit: 5,
      offset: 2,
    });
    expect(page.total).toBe(expected.length);
    expect(page.items.map((item) => item.id)).toEqual(expected.slice(2, 7));
    await expectRollupsEqualACountFromScratch();
  });

  it('follow employments moved to another company, person or creation day, and deleted, by plain SQL', async () => {
    await db.query(
      `UPDATE employees SET company_id = 'co-c' WHERE company_id = 'co-a' AND id IN (SELECT id FROM employees WHERE company_id = 'co-a' ORDER BY id LIMIT 5)`,
    );
    await expectRollupsEqualACountFromScratch();
    await expectListingsAgree();
    const [a, b] = await db.query<{ id: string }>('SELECT id::text FROM persons ORDER BY id LIMIT 2');
    await db.query(
      'UPDATE employees SET person_id = $2, person_created_at = p.created_at, person_updated_at = p.updated_at FROM persons p WHERE p.id = $2 AND employees.person_id = $1',
      [a!.id, b!.id],
    );
    await db.query(`UPDATE persons SET created_at = created_at + interval '1 day' WHERE id IN (SELECT id FROM persons ORDER BY id DESC LIMIT 4)`);
    await expectRollupsEqualACountFromScratch();
    await expectListingsAgree();
    await db.query(`DELETE FROM employees WHERE id IN (SELECT id FROM employees ORDER BY id DESC LIMIT 7)`);
    await db.query(
      `UPDATE employees SET person_id = NULL, person_created_at = NULL, person_updated_at = NULL WHERE id IN (SELECT id FROM employees WHERE person_id IS NOT NULL ORDER BY id LIMIT 3)`,
    );
    await expectRollupsEqualACountFromScratch();
    await expectListingsAgree();
  });

  it('empties with the employments', async () => {
    await db.query('TRUNCATE employees');
    expect(await snapshot()).toEqual({ companies: [], credentials: [] });
    await expectRollupsEqualACountFromScratchWhenEmpty();
  });
});
