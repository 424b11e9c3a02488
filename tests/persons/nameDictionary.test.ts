// Name search goes through dictionaries of distinct folded names for fragments of one or
// two characters and through the name pieces for longer ones (server/db/derived), both
// kept by the database itself. Whatever writes employees (the import, COPY, plain SQL), a name
// is searchable by fragments of any length from the statement that wrote it on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPersons } from '../../server/db/reads/queries.js';
import { foldName } from '../../server/domain/names.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

const CREDENTIAL = '00000000-0000-4000-8000-0000000000c1';
const PERSON = '00000000-0000-4000-8000-000000000001';

describe.each(engines)('names written by plain SQL on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    const { db } = database;
    await db.query(`INSERT INTO companies VALUES ('co-1', 'One')`);
    await db.query(`INSERT INTO persons VALUES ($1, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')`, [PERSON]);
    await db.query(
      `INSERT INTO employees (id, company_id, person_id, person_created_at, person_updated_at, first_name, last_name, first_name_folded, last_name_folded,
         date_of_birth, email, phone, address_line1, city, state, postal_code, created_at, updated_at)
       VALUES (gen_random_uuid(), 'co-1', $1, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', 'Émile', 'Zola', 'émile', 'zola', '1980-01-01', 'e@example.com',
               '+14155550100', '1 Main', 'Paris', 'CA', '90000', now(), now())`,
      [PERSON],
    );
  });
  afterAll(() => database?.drop());

  const search = async (filter: Partial<PersonFilter>) =>
    (
      await findPersons(database.db, {
        ...everyFieldScope,
        credentialId: CREDENTIAL,
        authorizedCompanies: ['co-1'],
        inlineCompaniesMax: 200,
        limit: 10,
        offset: 0,
        ...filter,
      })
    ).items
      .flatMap((item) => JSON.parse(item.json).employments)
      .map((e: any) => `${e.demographics.firstName} ${e.demographics.lastName}`);

  it('finds an employment written by plain SQL by first, last and both names', async () => {
    expect(await search({ firstName: foldName('MIL') })).toEqual(['Émile Zola']);
    expect(await search({ lastName: foldName('ol') })).toEqual(['Émile Zola']);
    expect(await search({ firstName: foldName('émi'), lastName: foldName('zol') })).toEqual(['Émile Zola']);
    expect(await search({ firstName: foldName('xyz'), lastName: foldName('zol') })).toEqual([]);
  });

  it('finds names by fragments of one and two characters, which hold no name piece', async () => {
    for (const lastName of ['z', 'ZO', 'la']) expect(await search({ lastName: foldName(lastName) }), lastName).toEqual(['Émile Zola']);
    for (const firstName of ['É', 'é', 'mi', 'LE']) expect(await search({ firstName: foldName(firstName) }), firstName).toEqual(['Émile Zola']);
    for (const lastName of ['x', 'az', 'é']) expect(await search({ lastName: foldName(lastName) }), lastName).toEqual([]);
  });

  it('takes %, _ and \\ in a fragment literally, short or long', async () => {
    await database.db.query(`UPDATE employees SET first_name = 'A%b_c\\d', first_name_folded = 'a%b_c\\d'`);
    for (const firstName of ['%', '_', '\\', '%b', 'b_c\\', 'a%b_c\\d']) expect(await search({ firstName }), firstName).toEqual(['A%b_c\\d Zola']);
    for (const firstName of ['b%', '_b', 'a_b', 'c%d', '%%', 'a%c']) expect(await search({ firstName }), firstName).toEqual([]);
    await database.db.query(`UPDATE employees SET first_name = 'Émile', first_name_folded = 'émile'`);
  });

  it('follows a renamed employment to its new name', async () => {
    await database.db.query(`UPDATE employees SET last_name = 'Hugo', last_name_folded = 'hugo'`);
    expect(await search({ lastName: foldName('hug') })).toEqual(['Émile Hugo']);
    // The old name, borne by nobody now, has left the dictionary.
    expect(await search({ lastName: foldName('zol') })).toEqual([]);
    expect(await search({ lastName: foldName('zo') })).toEqual([]);
    expect(await database.db.query('SELECT folded FROM last_name_dictionary')).toEqual([{ folded: 'hugo' }]);
  });
});
