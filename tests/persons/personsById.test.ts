// Get person's coalesced statement (server/db/personsById.ts) answers each id exactly as
// the person query (findPersons) answers it alone: the same person text or nobody, under
// each form of authorization (one company, an inline list, the joined company set) and with
// or without a choice of external systems; and one batch holds many callers' ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCredential } from '../../server/db/credentials.js';
import { findPersons } from '../../server/db/persons.js';
import { findPersonsById } from '../../server/db/personsById.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { PersonLookups } from '../../server/operations/personLookups.js';
import { ids, smallDataset } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const asked = [ids.emile, ids.ana, ids.hidden, UNKNOWN, ids.emile];

describe.each(engines)('Get person by id, many at once, on %s', (engine) => {
  let database: ThrowawayDatabase;
  const sets: Record<string, string> = {};
  const companyLists: Record<string, string[]> = { one: ['acme-corp'], two: ['acme-corp', 'globex'], none: [], all: ['acme-corp', 'globex', 'secret-co'] };
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    await importRecords(database.db, smallDataset(), 'US');
    for (const [name, companies] of Object.entries(companyLists)) {
      const id = await insertCredential(database.db, `by-id ${name}`, hashToken(`plk_test_by_id_${name}_0000000`), companies);
      const [row] = await database.db.query<{ set: string }>('SELECT company_set_id AS set FROM credentials WHERE id = $1', [id]);
      sets[name] = row!.set;
    }
  });
  afterAll(() => database?.drop());

  for (const inlineCompaniesMax of [0, 50]) {
    for (const externalIdSystems of [undefined, ['payroll'], ['nothing']]) {
      it(`agrees with findPersons (inline up to ${inlineCompaniesMax}, systems ${JSON.stringify(externalIdSystems)})`, async () => {
        for (const [name, authorizedCompanies] of Object.entries(companyLists)) {
          const filter = { credentialId: sets[name]!, authorizedCompanies, inlineCompaniesMax, externalIdSystems };
          const batch = await findPersonsById(database.db, filter, asked);
          expect(Date.parse(batch.asOf)).not.toBeNaN();
          for (const personId of new Set(asked)) {
            const [alone] = await findPersons(database.db, { ...filter, personId, limit: 1, offset: 0 });
            const found = batch.rows.filter((row) => row.person_id === personId);
            if (alone!.person === null) expect(found).toEqual([]);
            else expect(found.map((row) => row.person)).toEqual([alone!.person]);
          }
        }
      });
    }
  }

  it('gives each caller of one turn its own answer, at one asOf', async () => {
    const lookups = new PersonLookups(database.db);
    const two = { credentialId: sets.two!, authorizedCompanies: companyLists.two!, inlineCompaniesMax: 50 };
    const one = { credentialId: sets.one!, authorizedCompanies: companyLists.one!, inlineCompaniesMax: 50 };
    const [emile, emileUpper, hidden, unknown, emileForOne] = await Promise.all([
      lookups.lookUp(two, ids.emile),
      lookups.lookUp(two, ids.emile.toUpperCase()),
      lookups.lookUp(two, ids.hidden),
      lookups.lookUp(two, UNKNOWN),
      lookups.lookUp(one, ids.emile),
    ]);
    expect(emile!.personId).toBe(ids.emile);
    expect(emileUpper).toEqual(emile);
    expect(JSON.parse(emile!.person!).employments).toHaveLength(2);
    expect(JSON.parse(emileForOne!.person!).employments.map((e: any) => e.companyId)).toEqual(['acme-corp']);
    expect(hidden).toEqual({ asOf: emile!.asOf });
    expect(unknown).toEqual({ asOf: emile!.asOf });
  });

  it('answers every caller when one turn holds more lookups than a statement takes', async () => {
    const lookups = new PersonLookups(database.db);
    const two = { credentialId: sets.two!, authorizedCompanies: companyLists.two!, inlineCompaniesMax: 50 };
    const asking = Array.from({ length: 150 }, (_, i) => [ids.emile, ids.ana, ids.hidden][i % 3]!);
    const answers = await Promise.all(asking.map((id) => lookups.lookUp(two, id)));
    expect(answers.map((a) => a.personId)).toEqual(asking.map((id) => (id === ids.hidden ? undefined : id)));
  });
});
