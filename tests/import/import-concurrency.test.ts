// Imports on PostgreSQL while others write and read: two imports touching the same people
// at once both apply, one after the other, and the result is one of them applied after
// the other, never a mix; searches during an import see the state before the file or
// after it, never between; derived data stays exact throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedDataAndRebuild } from '../../server/db/derived/index.js';
import { findPersons } from '../../server/db/reads/queries.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { readsEverything } from '../fixtures/credentials.js';
import { employee } from '../fixtures/small.js';
import { type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

const CREDENTIAL = '00000000-0000-4000-8000-0000000000c1';
const PEOPLE = 400;
const personId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const jobId = (i: number, j: number) => `00000000-0000-4000-9${j}00-${String(i).padStart(12, '0')}`;

/** Every person renamed to `lastName` in both their employments, moved to `company`, and re-dated to `day`. */
function renameAll(lastName: string, company: string, day: string): ImportRecord[] {
  return Array.from({ length: PEOPLE }, (_, i): ImportRecord[] => [
    { type: 'person', id: personId(i), createdAt: `${day}T00:00:00.000Z`, updatedAt: `${day}T00:00:00.000Z` },
    employee({ id: jobId(i, 1), companyId: company, personId: personId(i), lastName }),
    employee({ id: jobId(i, 2), companyId: 'co-b', personId: personId((i + 1) % PEOPLE), lastName }),
  ]).flat();
}

describe.skipIf(!process.env.DATABASE_URL)('imports alongside other imports and searches on PostgreSQL', () => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase('postgres');
    await importRecords(
      database.db,
      [
        { type: 'company', id: 'co-a', name: 'A' },
        { type: 'company', id: 'co-b', name: 'B' },
        { type: 'company', id: 'co-c', name: 'C' },
        ...renameAll('Original', 'co-a', '2024-01-01'),
      ],
      'US',
    );
    await database.db.query(`INSERT INTO credentials (id, name, token_hash, fields, purpose) VALUES ($1, 'all', '\\x01', $2, $3)`, [
      CREDENTIAL,
      readsEverything.fields,
      readsEverything.purpose,
    ]);
    await database.db.query(`INSERT INTO credential_companies VALUES ($1, 'co-a'), ($1, 'co-b'), ($1, 'co-c')`, [CREDENTIAL]);
  }, 120_000);
  afterAll(() => database?.drop());

  const lastNames = async () =>
    await database.db.query<{ last_name: string; n: number }>('SELECT last_name, count(*)::int AS n FROM employees GROUP BY 1 ORDER BY 1');
  const expectExact = async () => {
    const { kept, rebuilt } = await derivedDataAndRebuild(database.db);
    expect(kept).toEqual(rebuilt);
  };

  it('applies two imports of the same people one after the other: the result is one file whole, and derived data exact', async () => {
    const [alpha, beta] = await Promise.all([
      importRecords(database.db, renameAll('Alpha', 'co-a', '2024-02-01'), 'US'),
      importRecords(database.db, renameAll('Beta', 'co-c', '2024-03-01'), 'US'),
    ]);
    expect(alpha.employee.changed + beta.employee.changed).toBeGreaterThanOrEqual(2 * PEOPLE);
    const names = await lastNames();
    expect([[{ last_name: 'Alpha', n: 2 * PEOPLE }], [{ last_name: 'Beta', n: 2 * PEOPLE }]]).toContainEqual(names);
    const company = names[0]!.last_name === 'Alpha' ? 'co-a' : 'co-c';
    expect(await database.db.query(`SELECT company_id, count(*)::int AS n FROM employees WHERE id::text LIKE '%-9100-%' GROUP BY 1`)).toEqual([
      { company_id: company, n: PEOPLE },
    ]);
    await expectExact();
  });

  it('lets searches run during an import, each seeing the state before the file or after it', async () => {
    // Two searches, each one statement (one snapshot): a name search (name pieces) and a
    // listing from a creation day (rollups). Each total is all or nothing.
    const byName = () =>
      findPersons(database.db, {
        ...everyFieldScope,
        credentialId: CREDENTIAL,
        authorizedCompanies: ['co-a', 'co-b', 'co-c'],
        inlineCompaniesMax: 200,
        lastName: 'gamma',
        limit: 1,
        offset: 0,
      });
    const listed = () =>
      findPersons(database.db, {
        ...everyFieldScope,
        credentialId: CREDENTIAL,
        authorizedCompanies: ['co-a'],
        inlineCompaniesMax: 200,
        createdFrom: '2024-04-01T00:00:00Z',
        limit: 1,
        offset: 0,
      });
    const total = async (search: typeof byName) => (await search()).total;
    expect([await total(byName), await total(listed)]).toEqual([0, 0]);
    let importing = true;
    const seen = { byName: new Set<number>(), listed: new Set<number>() };
    let during = 0;
    const reader = (async () => {
      while (importing) {
        const [a, b] = await Promise.all([total(byName), total(listed)]);
        if (importing) during++;
        seen.byName.add(a);
        seen.listed.add(b);
      }
    })();
    await importRecords(database.db, renameAll('Gamma', 'co-a', '2024-04-01'), 'US');
    importing = false;
    await reader;
    seen.byName.add(await total(byName));
    seen.listed.add(await total(listed));
    // Before: nobody named Gamma, nobody created from April in co-a. After: everyone.
    for (const totals of [seen.byName, seen.listed])
      expect(
        [...totals].every((n) => n === 0 || n === PEOPLE),
        [...totals].join(' '),
      ).toBe(true);
    expect(seen.byName.has(PEOPLE) && seen.listed.has(PEOPLE)).toBe(true);
    expect(during).toBeGreaterThan(0);
    await expectExact();
  });

  it('keeps derived data exact when plain-SQL writers and an import change the same people at once', async () => {
    await Promise.all([
      importRecords(database.db, renameAll('Delta', 'co-b', '2024-05-01'), 'US'),
      database.db.query(`UPDATE employees SET company_id = 'co-c' WHERE id::text LIKE '%-9200-%'`),
      database.db.query(`UPDATE persons SET created_at = '2024-06-01', updated_at = '2024-06-01' WHERE id IN (SELECT id FROM persons ORDER BY id LIMIT 50)`),
      database.db.query(`DELETE FROM employees WHERE id IN (SELECT id FROM employees ORDER BY id DESC LIMIT 20)`),
    ]);
    await expectExact();
  });
});
