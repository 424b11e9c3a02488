// The delete path erasure and operators call (server/db/derived/index.ts): deleting
// employments, persons or companies leaves every derived structure equal to a rebuild,
// and a name only the deleted bore leaves the dictionaries and the name pieces.
import { describe, expect, it } from 'vitest';
import { deleteCompanies, deleteEmployments, deletePersons, derivedDataAndRebuild } from '../../server/db/derived/index.js';
import { ids } from '../fixtures/small.js';
import { engines, useThrowawayDatabase } from '../helpers/databases.js';

describe.each(engines)('the delete path on %s', (engine) => {
  const database = useThrowawayDatabase(engine);

  const expectExact = async () => {
    const { kept, rebuilt } = await derivedDataAndRebuild(database.db);
    expect(kept).toEqual(rebuilt);
  };
  const holds = async (folded: string) => ({
    dictionary: (await database.db.query('SELECT 1 FROM last_name_dictionary WHERE folded = $1', [folded])).length,
    pieces: (await database.db.query('SELECT 1 FROM last_name_pieces WHERE last_name_folded = $1', [folded])).length,
  });

  it('deletes an employment, keeping what other employments still bear', async () => {
    expect(await database.db.transaction((tx) => deleteEmployments(tx, [ids.emileSecret]))).toBe(1);
    expect(await holds('secretive')).toEqual({ dictionary: 0, pieces: 0 });
    expect((await holds('durand')).dictionary).toBe(1);
    await expectExact();
  });

  it('deletes a person with every employment of theirs; a name only they bore goes', async () => {
    expect(await database.db.transaction((tx) => deletePersons(tx, [ids.ana]))).toBe(1);
    expect(await holds('durán')).toEqual({ dictionary: 0, pieces: 0 });
    expect(await database.db.query('SELECT 1 FROM employees WHERE person_id = $1', [ids.ana])).toEqual([]);
    await expectExact();
  });

  it('deletes a company with its employments and its place in credentials', async () => {
    expect(await database.db.transaction((tx) => deleteCompanies(tx, ['globex']))).toBe(1);
    expect(await database.db.query(`SELECT 1 FROM credential_companies WHERE company_id = 'globex'`)).toEqual([]);
    await expectExact();
  });
});
