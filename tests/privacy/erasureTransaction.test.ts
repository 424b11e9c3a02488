// Each erasure is one transaction: a failure at its last step leaves every row of every
// table as it was, a dry run changes nothing, and once it commits the session that made it
// holds no copy either (the upkeep's notes, ON COMMIT DELETE ROWS; the planner statistics), on
// both engines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importRecords } from '../../server/importing/index.js';
import { ErasureRefused, eraseCompany, eraseEmployment, erasePerson } from '../../server/privacy/erasure.js';
import { erased, erasureDataset, goneCompany, erasureIds as ids } from '../fixtures/erasure.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { dumpAll, findValues } from '../helpers/dumpAll.js';

describe.each(engines)('an erasure on %s', (engine) => {
  let database: ThrowawayDatabase;
  const db = () => database.db;
  beforeEach(async () => {
    database = await throwawayDatabase(engine);
    await importRecords(database.db, erasureDataset(), 'US');
  }, 60_000);
  afterEach(() => database?.drop());

  /** Makes every delete from `table` fail, as a broken constraint or an outage would. */
  const failDeletesOf = async (table: string) => {
    await db().query(`CREATE FUNCTION fail_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
    await db().query(`CREATE TRIGGER fail_for_test BEFORE DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION fail_for_test()`);
  };

  it('rolls a person erasure back whole when its last statement fails', async () => {
    await failDeletesOf('persons');
    const before = await dumpAll(db());
    await expect(erasePerson(db(), ids.erasedPerson)).rejects.toThrow(/injected failure/);
    expect(await dumpAll(db())).toEqual(before);
  });

  it('rolls a company erasure back whole, credentials and their sets included, when its last statement fails', async () => {
    // The people left with no employment go last, after the credentials' sets were replaced.
    await failDeletesOf('persons');
    const before = await dumpAll(db());
    await expect(eraseCompany(db(), goneCompany)).rejects.toThrow(/injected failure/);
    expect(await dumpAll(db())).toEqual(before);
  });

  it('changes nothing in a dry run, and reports what the erasure then removes', async () => {
    const before = await dumpAll(db());
    const dry = await eraseCompany(db(), goneCompany, { dryRun: true });
    expect(await dumpAll(db())).toEqual(before);
    const done = await eraseCompany(db(), goneCompany);
    expect(dry).toEqual({ ...done, dryRun: true });
    await expect(eraseCompany(db(), goneCompany)).rejects.toThrow(ErasureRefused);
  });

  it('leaves no copy in the session that erased, once committed', async () => {
    // The import and the erasures ran in this process's sessions (PGlite: the one session
    // the dump reads too), whose upkeep noted every row they changed.
    await erasePerson(db(), ids.erasedPerson);
    await eraseCompany(db(), goneCompany);
    await eraseEmployment(db(), ids.lookalike);
    const dump = await dumpAll(db());
    if (engine === 'pglite') expect(Object.keys(dump)).toEqual(expect.arrayContaining(['pg_temp.employment_changes', 'pg_temp.name_pieces_gone']));
    // (The company's id stays in the change feed, an id as its records' are: erasure.cases.ts.)
    expect(findValues(dump, erased, { except: ['public.changes'] })).toEqual({});
    expect(
      findValues(
        dump,
        erased.filter((value) => value !== goneCompany),
      ),
    ).toEqual({});
  });
});
