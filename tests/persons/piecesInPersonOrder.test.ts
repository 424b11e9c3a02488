// A name fragment searched over nearly every company reads its name pieces in person order
// (db/reads/persons/plan.ts, *_name_pieces_by_person), skipping the entries of the few companies outside the
// credential. It must answer exactly as reading company by company does: same people, same
// employments, same exact total, page by page; and whatever the credential's count of
// outside companies says, because that count is only a hint read when the credential was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
import { findPersons } from '../../server/db/reads/queries.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { recordReadsEverything } from '../fixtures/credentials.js';
import { employee } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

const inside = ['co-1', 'co-2', 'co-3', 'co-4'];
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;
const minute = (n: number) => new Date(Date.UTC(2024, 0, 1, 0, n)).toISOString();

/** People named Fischer, Fisch, Schmidt or Ascher, in one to three companies, co-5 (outside the credential) among them. */
function records(): { records: ImportRecord[]; onlyOutside: string[] } {
  const out: ImportRecord[] = ['co-1', 'co-2', 'co-3', 'co-4', 'co-5'].map((id) => ({ type: 'company', id, name: id }));
  const lastNames = ['Fischer', 'Fisch', 'Schmidt', 'Ascher', 'Brown'];
  const firstNames = ['Anna', 'Hans', 'Schorsch'];
  const onlyOutside: string[] = [];
  for (let i = 0; i < 40; i++) {
    const id = uuid();
    // Several people share a creation instant, so ties are broken by id.
    out.push({ type: 'person', id, createdAt: minute(i % 13), updatedAt: minute(i % 13) });
    const companies =
      i % 5 === 0 ? ['co-5'] : i % 3 === 0 ? ['co-5', `co-${1 + (i % 4)}`] : [`co-${1 + (i % 4)}`, `co-${1 + ((i + 1) % 4)}`].slice(0, 1 + (i % 2));
    if (companies.length === 1 && companies[0] === 'co-5') onlyOutside.push(id);
    for (const [j, companyId] of companies.entries()) {
      out.push(
        employee({
          id: uuid(),
          companyId,
          personId: id,
          firstName: firstNames[(i + j) % 3]!,
          lastName: lastNames[(i + j) % 5]!,
          createdAt: minute(j),
          updatedAt: minute(j),
        }),
      );
    }
  }
  out.push({ type: 'credential', name: 'four of five', token: `plk_test_${'x'.repeat(24)}`, companies: inside, ...recordReadsEverything });
  return { records: out, onlyOutside };
}

describe.each(engines)('name pieces read in person order on %s', (engine) => {
  let database: ThrowawayDatabase;
  let db: Database;
  let credentialId: string;
  let onlyOutside: string[];
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    db = database.db;
    const data = records();
    onlyOutside = data.onlyOutside;
    await importRecords(db, data.records, 'US');
    const [credential] = await db.query<{ id: string }>(`SELECT company_set_id AS id FROM credentials`);
    credentialId = credential!.id;
  });
  afterAll(() => database?.drop());

  /** The page as findPersons answers it, its instant left out; `companiesOutside` undefined reads company by company. */
  const page = async (filter: Partial<PersonFilter>, companiesOutside: number | undefined) => {
    const { asOf: _, ...rest } = await findPersons(db, {
      ...everyFieldScope,
      credentialId,
      authorizedCompanies: inside,
      companiesOutside,
      inlineCompaniesMax: 200,
      limit: 50,
      offset: 0,
      ...filter,
    });
    return rest;
  };

  const fragments: Partial<PersonFilter>[] = [
    { lastName: 'sch' },
    { lastName: 'fisch' },
    { firstName: 'sch' },
    { lastName: 'sch', firstName: 'an' },
    { lastName: 'her', firstName: 'hans' },
  ];

  it.each(fragments)('answers %o as reading company by company does, page by page, past the end included', async (filter) => {
    const whole = await page(filter, undefined);
    expect(whole.total).toBeGreaterThan(3);
    expect(await page(filter, 1)).toEqual(whole);
    for (let offset = 0; offset <= whole.total + 3; offset += 3) {
      expect(await page({ ...filter, limit: 3, offset }, 1), `offset ${offset}`).toEqual(await page({ ...filter, limit: 3, offset }, undefined));
    }
  });

  it('never shows the people or employments of the company outside the credential', async () => {
    const { items, total } = await page({ lastName: 'sch' }, 1);
    expect(items).toHaveLength(total);
    const shown = items.map((p) => JSON.parse(p.json));
    expect(shown.map((p) => p.id)).not.toEqual(expect.arrayContaining([onlyOutside[0]]));
    expect(shown.flatMap((p) => p.employments.map((e: { companyId: string }) => e.companyId))).not.toContain('co-5');
  });

  it('finds the companies outside the credential itself: a stale count, or a company added since, changes nothing', async () => {
    const before = await page({ lastName: 'sch' }, 1);
    expect(await page({ lastName: 'sch' }, 0)).toEqual(before);
    const added = uuid();
    await importRecords(
      db,
      [
        { type: 'company', id: 'co-6', name: 'co-6' },
        { type: 'person', id: added, createdAt: minute(0), updatedAt: minute(0) },
        employee({ id: uuid(), companyId: 'co-6', personId: added, firstName: 'Anna', lastName: 'Schulz', createdAt: minute(0), updatedAt: minute(0) }),
      ],
      'US',
    );
    expect(await page({ lastName: 'sch' }, 1)).toEqual(before);
    expect(await page({ lastName: 'sch' }, 1)).toEqual(await page({ lastName: 'sch' }, undefined));
  });
});
