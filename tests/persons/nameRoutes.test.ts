// A name fragment of three or more characters is matched in the name pieces, which hold a
// few columns of an employment (server/db/reads/persons/nameRoutes.ts). A search that also sets a filter
// on another column must be sent where that column is, never fail in SQL: here a filter
// this test declares itself, on the city, which the pieces lack, over one company, several
// inline, several joined and nearly every company, against what the records themselves say.
// And the columns each route is said to hold are the ones its table has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employmentColumns } from '../../server/db/employmentColumns.js';
import type { Database } from '../../server/db/engines/database.js';
import { namePiecesColumns } from '../../server/db/reads/persons/nameRoutes.js';
import { personQuery } from '../../server/db/reads/queries.js';
import { personFilters, personTimeColumns } from '../../server/domain/employment.js';
import { foldName } from '../../server/domain/names.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { importRecords } from '../../server/importing/index.js';
import type { EmployeeRecord, ImportRecord } from '../../server/importing/records.js';
import { recordReadsEverything } from '../fixtures/credentials.js';
import { employee as fixtureEmployee } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

/** The service's filters and one of this test's own, on a column the name pieces do not hold. */
const rules = { ...personFilters, city: { column: 'city', match: 'equals', rollups: 'cannot' } } as const;
const findWithCity = personQuery(rules);

const companies = ['co-1', 'co-2', 'co-3', 'co-4'];
const credentialCompanies = ['co-1', 'co-2', 'co-3'];
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;
const minute = (n: number) => new Date(Date.UTC(2024, 0, 1, 0, n)).toISOString();

function employee(companyId: string, personId: string, firstName: string, lastName: string, city: string, n: number): EmployeeRecord {
  const base = fixtureEmployee({ id: uuid(), companyId, personId, firstName, lastName, createdAt: minute(n), updatedAt: minute(n) });
  return { ...base, address: { ...base.address, city } };
}

/** People named Durand, Duran, Dupont or Smith, in Lyon or Paris, in one or two of the four companies. */
function dataset(): { records: ImportRecord[]; employees: EmployeeRecord[] } {
  const records: ImportRecord[] = companies.map((id) => ({ type: 'company', id, name: id }));
  const employees: EmployeeRecord[] = [];
  const lastNames = ['Durand', 'Duran', 'Dupont', 'Smith'];
  const firstNames = ['Anna', 'Annette', 'Hans'];
  const cities = ['Lyon', 'Paris', 'Lyon'];
  for (let i = 0; i < 36; i++) {
    const personId = uuid();
    records.push({ type: 'person', id: personId, createdAt: minute(i % 11), updatedAt: minute(i % 11) });
    // A second employment elsewhere, in another city and under another name: the filters
    // must hold on one and the same employment.
    const held = i % 3 === 0 ? [companies[i % 4]!, companies[(i + 1) % 4]!] : [companies[i % 4]!];
    for (const [j, companyId] of held.entries()) {
      employees.push(employee(companyId, personId, firstNames[(i + j) % 3]!, lastNames[(i + j) % 4]!, cities[(i + 2 * j) % 3]!, j));
    }
  }
  records.push(...employees);
  records.push({ type: 'credential', name: 'three of four', token: `plk_test_${'r'.repeat(24)}`, companies: credentialCompanies, ...recordReadsEverything });
  return { records, employees };
}

/** Whom the search should find, from the records: people with one employment meeting every filter set. */
function expected(employees: EmployeeRecord[], filter: { authorizedCompanies: readonly string[]; lastName?: string; firstName?: string; city?: string }) {
  const ids = employees
    .filter(
      (e) =>
        filter.authorizedCompanies.includes(e.companyId) &&
        (filter.lastName === undefined || foldName(e.lastName).includes(filter.lastName)) &&
        (filter.firstName === undefined || foldName(e.firstName).includes(filter.firstName)) &&
        (filter.city === undefined || e.address.city === filter.city),
    )
    .map((e) => e.personId!);
  return [...new Set(ids)].sort();
}

describe.each(engines)('a name search with a filter the name pieces lack, on %s', (engine) => {
  let database: ThrowawayDatabase;
  let db: Database;
  let employees: EmployeeRecord[];
  let credentialId: string;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    db = database.db;
    const data = dataset();
    employees = data.employees;
    await importRecords(db, data.records, 'US');
    credentialId = (await db.query<{ id: string }>('SELECT company_set_id AS id FROM credentials'))[0]!.id;
  });
  afterAll(() => database?.drop());

  /** The people found (sorted ids) and whether the statement read the name pieces. */
  async function search(filter: Partial<PersonFilter<typeof rules>>) {
    const statements: string[] = [];
    const watched = { query: (sql: string, params?: unknown[], options?: object) => (statements.push(sql), db.query(sql, params, options)) } as Database;
    const page = await findWithCity(watched, {
      ...everyFieldScope,
      credentialId,
      authorizedCompanies: credentialCompanies,
      inlineCompaniesMax: 200,
      limit: 100,
      offset: 0,
      ...filter,
    });
    expect(page.total).toBe(page.items.length);
    return { ids: page.items.map((p) => p.id).sort(), readPieces: statements.some((sql) => sql.includes('_name_pieces')) };
  }

  const scopes: [string, Partial<PersonFilter>][] = [
    ['one company', { authorizedCompanies: ['co-2'] }],
    ['several companies, inline', {}],
    ['several companies, joined', { inlineCompaniesMax: 0 }],
    ['nearly every company', { companiesOutside: 0 }],
  ];
  const names: Partial<PersonFilter>[] = [{ lastName: 'dur' }, { lastName: 'dura' }, { firstName: 'annet' }, { lastName: 'dur', firstName: 'ann' }];

  for (const [scope, given] of scopes) {
    for (const name of names) {
      it(`finds ${JSON.stringify(name)} in Lyon over ${scope}`, async () => {
        const filter = { authorizedCompanies: credentialCompanies, ...given, ...name };
        const withCity = await search({ ...filter, city: 'Lyon' });
        expect(withCity.ids).toEqual(expected(employees, { ...filter, city: 'Lyon' }));
        expect(withCity.ids.length).toBeGreaterThan(0);
        // Not through the name pieces, which have no city...
        expect(withCity.readPieces).toBe(false);
        // ...which the same names without it do read.
        const without = await search(filter);
        expect(without.ids).toEqual(expected(employees, filter));
        expect(without.readPieces).toBe(true);
        expect(without.ids.length).toBeGreaterThan(withCity.ids.length);
      });
    }
  }

  it('holds the columns each route is said to have to its table', async () => {
    const columnsOf = async (table: string) =>
      (
        await db.query<{ name: string }>(
          `SELECT column_name::text AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY 1`,
          [table],
        )
      ).map((c) => c.name);
    for (const lead of ['last', 'first'] as const) expect(await columnsOf(`${lead}_name_pieces`)).toEqual(['piece', ...namePiecesColumns[lead]].sort());
    // The employees route has every column the declaration knows.
    const declared = [...employmentColumns.map((c) => c.column), ...personTimeColumns];
    expect(await columnsOf('employees')).toEqual(expect.arrayContaining(declared));
    for (const rule of Object.values(personFilters)) expect(declared).toContain(rule.column);
  });
});
