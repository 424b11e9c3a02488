// The name pieces (server/db/derived) that serve name fragments of three or more
// characters: kept through imports, plain-SQL inserts and renames, equal at every step to
// a rebuild from scratch, and giving the same people as reading every employment.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedDataAndRebuild } from '../../server/db/derived/index.js';
import type { Database } from '../../server/db/engines/database.js';
import { findPersons } from '../../server/db/reads/queries.js';
import { foldName } from '../../server/domain/names.js';
import { importRecords } from '../../server/importing/index.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { employee as fixtureEmployee } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

const CREDENTIAL = '00000000-0000-4000-8000-0000000000c1';
const companies = ['co-a', 'co-b'];
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;
const person = (): ImportRecord & { type: 'person'; id: string } => ({
  type: 'person',
  id: uuid(),
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
});
const employee = (personId: string | null, companyId: string, firstName: string, lastName: string) =>
  fixtureEmployee({ id: uuid(), companyId, personId, firstName, lastName });

describe.each(engines)('name pieces on %s', (engine) => {
  let database: ThrowawayDatabase;
  let db: Database;
  const ada = person();
  const zoe = person();
  // Ada is employed twice by co-a under the same names, and once by co-b.
  const adaA1 = employee(ada.id, 'co-a', 'Ada', 'Lovelace');
  const adaA2 = employee(ada.id, 'co-a', 'Ada', 'Lovelace');
  const adaB = employee(ada.id, 'co-b', 'Ada', 'Byron-King');
  const zoeA = employee(zoe.id, 'co-a', 'Zoë', 'Ölçer');
  // Bea is employed twice by co-b, under two other names.
  const bea = person();
  const beaB1 = employee(bea.id, 'co-b', 'Beatrix', 'Quist');
  const beaB2 = employee(bea.id, 'co-b', 'Maxine', 'Odel');
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    db = database.db;
    await importRecords(
      db,
      [
        ...companies.map((id): ImportRecord => ({ type: 'company', id, name: id })),
        ada,
        zoe,
        adaA1,
        adaA2,
        adaB,
        zoeA,
        bea,
        beaB1,
        beaB2,
        employee(null, 'co-a', 'Unlinked', 'Lovelace'),
      ],
      'US',
    );
    // The credential's companies, which a search through the dictionaries over several companies joins.
    await db.query(`INSERT INTO credential_companies (credential_id, company_id) SELECT $1, unnest($2::text[])`, [CREDENTIAL, companies]);
  });
  afterAll(() => database?.drop());

  const entries = async () => ({
    last: await db.query(`SELECT piece, company_id, person_id::text, last_name_folded, first_name_folded FROM last_name_pieces ORDER BY 1, 2, 3, 4, 5`),
    first: await db.query(`SELECT piece, company_id, person_id::text, first_name_folded FROM first_name_pieces ORDER BY 1, 2, 3, 4`),
  });
  const expectEntriesEqualAFillFromScratch = async () => {
    const { kept, rebuilt } = await derivedDataAndRebuild(db);
    expect(kept).toEqual(rebuilt);
    expect(kept.last_name_pieces.length).toBeGreaterThan(0);
  };
  const search = async (filter: { firstName?: string; lastName?: string; companyId?: string }, authorized = companies) =>
    (
      await findPersons(db, {
        ...everyFieldScope,
        credentialId: CREDENTIAL,
        authorizedCompanies: authorized,
        inlineCompaniesMax: 200,
        limit: 10,
        offset: 0,
        firstName: filter.firstName === undefined ? undefined : foldName(filter.firstName),
        lastName: filter.lastName === undefined ? undefined : foldName(filter.lastName),
        companyId: filter.companyId,
      })
    ).items
      .flatMap((item) => JSON.parse(item.json).employments)
      .map((e: any) => `${e.personId} ${e.companyId} ${e.demographics.lastName}`);

  it('files each linked employment under every three-character piece of its folded names, once', async () => {
    const { last, first } = await entries();
    expect(last.filter((e: any) => e.person_id === ada.id && e.company_id === 'co-a').map((e: any) => e.piece)).toEqual([
      'ace',
      'ela',
      'lac',
      'lov',
      'ove',
      'vel',
    ]);
    expect(last.filter((e: any) => e.last_name_folded === 'ölçer').map((e: any) => e.piece)).toEqual(['lçe', 'çer', 'ölç']);
    // A first-name entry holds no last name: Ada's two names in co-a and her one in co-b are one entry per company.
    expect(first.filter((e: any) => e.person_id === ada.id).map((e: any) => `${e.piece} ${e.company_id}`)).toEqual(['ada co-a', 'ada co-b']);
    expect(first[0]).not.toHaveProperty('last_name_folded');
    // Unlinked employments never show, so they are not filed.
    expect(last.filter((e: any) => e.person_id === null)).toEqual([]);
    await expectEntriesEqualAFillFromScratch();
  });

  it('finds every employment of a matching person, whichever piece leads, with the other name checked on the same employment', async () => {
    expect(await search({ lastName: 'OVELA' })).toEqual([`${ada.id} co-a Lovelace`, `${ada.id} co-a Lovelace`, `${ada.id} co-b Byron-King`]);
    expect(await search({ lastName: 'lçe' })).toEqual([`${zoe.id} co-a Ölçer`]);
    expect(await search({ firstName: 'zoë', lastName: 'ölç' })).toHaveLength(1);
    expect(await search({ firstName: 'ada', lastName: 'ölç' })).toEqual([]);
    expect(await search({ lastName: 'n-k' })).toEqual([`${ada.id} co-a Lovelace`, `${ada.id} co-a Lovelace`, `${ada.id} co-b Byron-King`]);
    expect(await search({ lastName: 'n-k', companyId: 'co-a' })).toEqual([]);
    expect(await search({ lastName: 'lovelace' }, ['co-b'])).toEqual([]);
    // A first name leads when the last is shorter than three characters (through the
    // first-name dictionary), and the last is checked on the same employment.
    expect(await search({ firstName: 'zoë', lastName: 'çe' })).toHaveLength(1);
    expect(await search({ firstName: 'ada', lastName: 'by' })).toEqual([`${ada.id} co-a Lovelace`, `${ada.id} co-a Lovelace`, `${ada.id} co-b Byron-King`]);
    expect(await search({ firstName: 'ada', lastName: 'by', companyId: 'co-a' })).toEqual([]);
    expect(await search({ firstName: 'maxi', lastName: 'od' })).toEqual([`${bea.id} co-b Quist`, `${bea.id} co-b Odel`]);
    expect(await search({ firstName: 'beat', lastName: 'od' })).toEqual([]);
    expect(await search({ firstName: 'beat', lastName: 'q' }, ['co-a'])).toEqual([]);
  });

  it('follows a rename, keeping the entries another employment still bears', async () => {
    const firstEntries = `SELECT xmin::text, piece, company_id FROM first_name_pieces WHERE person_id = $1 ORDER BY 2, 3`;
    const adasFirstEntries = await db.query(firstEntries, [ada.id]);
    await db.query(`UPDATE employees SET last_name = 'Lamb', last_name_folded = 'lamb' WHERE id = $1`, [adaA1.id]);
    // adaA2 still bears "Lovelace" in co-a (and Ada's employments all show, never trimmed).
    expect(await search({ lastName: 'lovel', companyId: 'co-a' })).toEqual([`${ada.id} co-a Lamb`, `${ada.id} co-a Lovelace`, `${ada.id} co-b Byron-King`]);
    expect(await search({ lastName: 'lamb' })).toHaveLength(3);
    await expectEntriesEqualAFillFromScratch();
    await db.query(`UPDATE employees SET last_name = 'Lamb', last_name_folded = 'lamb' WHERE id = $1`, [adaA2.id]);
    expect(await search({ lastName: 'lovel' })).toEqual([]);
    await expectEntriesEqualAFillFromScratch();
    // A new last name leaves the first-name entries as they were, not written again.
    expect(await db.query(firstEntries, [ada.id])).toEqual(adasFirstEntries);
  });

  // Two writers at once, on PostgreSQL: an insert of an employment bearing names whose
  // entries exist (so it adds none), then, before it commits, a rename of the only other
  // employment bearing them. Unserialized, the rename cannot see the new employment and
  // drops the entries: the new employment is lost to name search.
  it.runIf(engine === 'postgres')('keeps the entries a concurrent insert relies on when a rename drops the old names', async () => {
    const carol = person();
    const carolA = employee(carol.id, 'co-a', 'Carol', 'Quill');
    await importRecords(db, [carol, carolA], 'US');
    const inserting = new pg.Client(database.url);
    const renaming = new pg.Client(database.url);
    await Promise.all([inserting.connect(), renaming.connect()]);
    try {
      await inserting.query('BEGIN');
      await inserting.query(
        `INSERT INTO employees (id, company_id, person_id, person_created_at, person_updated_at, first_name, last_name, first_name_folded, last_name_folded,
           date_of_birth, email, phone, address_line1, city, state, postal_code, created_at, updated_at)
         VALUES (gen_random_uuid(), 'co-a', $1, $2, $2, 'Carol', 'Quill', 'carol', 'quill', '1980-01-01', 'c@example.com',
                 '+14155550100', '1 Main', 'Paris', 'CA', '90000', now(), now())`,
        [carol.id, carol.createdAt],
      );
      await renaming.query('BEGIN');
      const rename = renaming.query(`UPDATE employees SET last_name = 'Penn', last_name_folded = 'penn' WHERE id = $1`, [carolA.id]);
      // Give the rename time to run (or to wait for the insert), then let both finish.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await inserting.query('COMMIT');
      await rename;
      await renaming.query('COMMIT');
    } finally {
      await Promise.all([inserting.end(), renaming.end()]);
    }
    expect(await search({ lastName: 'quill' })).toEqual([`${carol.id} co-a Penn`, `${carol.id} co-a Quill`]);
    await expectEntriesEqualAFillFromScratch();
  });

  it('follows plain-SQL inserts, and empties with employees', async () => {
    await db.query(
      `INSERT INTO employees (id, company_id, person_id, person_created_at, person_updated_at, first_name, last_name, first_name_folded, last_name_folded,
         date_of_birth, email, phone, address_line1, city, state, postal_code, created_at, updated_at)
       VALUES (gen_random_uuid(), 'co-b', $1, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', 'Zoë', 'Quartz', 'zoë', 'quartz', '1980-01-01', 'z@example.com',
               '+14155550100', '1 Main', 'Paris', 'CA', '90000', now(), now())`,
      [zoe.id],
    );
    expect(await search({ lastName: 'uar' })).toEqual([`${zoe.id} co-a Ölçer`, `${zoe.id} co-b Quartz`]);
    await expectEntriesEqualAFillFromScratch();
    await db.query('TRUNCATE employees');
    expect(await entries()).toEqual({ last: [], first: [] });
  });
});
