// A person's times are copied onto its employments (server/db/derived), which is what the
// person query reads. Written by plain SQL, a person's new times reach every copy, and a
// copy that disagrees with its person is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedDataAndRebuild } from '../../server/db/derived/index.js';
import { findPersons } from '../../server/db/reads/queries.js';
import { importRecords } from '../../server/importing/index.js';
import { employee as fixtureEmployee } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

const CREDENTIAL = '00000000-0000-4000-8000-0000000000c1';
const PERSON = '00000000-0000-4000-8000-000000000001';
const employee = (id: string, companyId: string) =>
  fixtureEmployee({
    id,
    companyId,
    personId: PERSON,
    firstName: 'Ada',
    lastName: 'Lovelace',
    createdAt: '2024-01-02T00:00:00.000Z',
    updatedAt: '2024-01-02T00:00:00.000Z',
  });

describe.each(engines)("a person's times written by plain SQL on %s", (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    await importRecords(
      database.db,
      [
        { type: 'company', id: 'co-a', name: 'A' },
        { type: 'company', id: 'co-b', name: 'B' },
        { type: 'person', id: PERSON, createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' },
        employee('00000000-0000-4000-8000-0000000000e1', 'co-a'),
        employee('00000000-0000-4000-8000-0000000000e2', 'co-b'),
      ],
      'US',
    );
  });
  afterAll(() => database?.drop());

  const personTimes = async () =>
    (
      await findPersons(database.db, {
        ...everyFieldScope,
        credentialId: CREDENTIAL,
        authorizedCompanies: ['co-a', 'co-b'],
        inlineCompaniesMax: 200,
        personId: PERSON,
        limit: 1,
        offset: 0,
      })
    ).items
      .map((item) => JSON.parse(item.json))
      .flatMap((person: any) => person.employments.map((e: any) => [e.companyId, person.createdAt, person.updatedAt]));

  it("shows a person's new updated_at on every employment", async () => {
    await database.db.query(`UPDATE persons SET updated_at = '2025-06-01T12:00:00Z' WHERE id = $1`, [PERSON]);
    expect(await personTimes()).toEqual([
      ['co-a', '2024-01-01T00:00:00.000Z', '2025-06-01T12:00:00.000Z'],
      ['co-b', '2024-01-01T00:00:00.000Z', '2025-06-01T12:00:00.000Z'],
    ]);
  });

  it("moves every employment with a person's new created_at, in the sort and the listing's counts", async () => {
    await database.db.query(`UPDATE persons SET created_at = '2023-01-01T00:00:00Z' WHERE id = $1`, [PERSON]);
    expect((await personTimes()).map(([, createdAt]) => createdAt)).toEqual(['2023-01-01T00:00:00.000Z', '2023-01-01T00:00:00.000Z']);
    const listed = await findPersons(database.db, {
      ...everyFieldScope,
      credentialId: CREDENTIAL,
      authorizedCompanies: ['co-a'],
      inlineCompaniesMax: 200,
      createdFrom: '2023-01-01T00:00:00Z',
      createdBefore: '2023-01-02T00:00:00Z',
      limit: 5,
      offset: 0,
    });
    expect([listed.items.map((item) => item.id), listed.total]).toEqual([[PERSON], 1]);
    const { kept, rebuilt } = await derivedDataAndRebuild(database.db);
    expect(kept).toEqual(rebuilt);
  });

  it("refuses an employment whose copy of its person's times is not the person's", async () => {
    await expect(database.db.query(`UPDATE employees SET person_updated_at = '2020-01-01T00:00:00Z' WHERE company_id = 'co-a'`)).rejects.toThrow(
      /employees_person/,
    );
    expect((await personTimes()).map(([, , updatedAt]) => updatedAt)).toEqual(['2025-06-01T12:00:00.000Z', '2025-06-01T12:00:00.000Z']);
  });
});
