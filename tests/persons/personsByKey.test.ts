// The coalesced statement of exact lookups (server/db/persons/personsByKey.ts) answers each ask
// exactly as the person query (findPersons) answers it alone: the same total and the same
// page, person by person, under each form of authorization (one company, an inline list,
// the joined company set), with or without a choice of external systems, for a person id
// or a phone, on any page; and one batch holds many callers' asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlPersonQueries } from '../../server/db/persons/personQueries.js';
import { findPersons } from '../../server/db/persons/persons.js';
import { findPersonsByKey } from '../../server/db/persons/personsByKey.js';
import { insertCredential } from '../../server/db/stores/credentials.js';
import { type LookupKey, lookupKeyOf, type PageAsk } from '../../server/domain/personQueries.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { ExactLookups, type PersonLookups } from '../../server/operations/exactLookups.js';
import { ids, smallDataset } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const values: Record<LookupKey, string[]> = {
  personId: [ids.emile, ids.ana, ids.hidden, UNKNOWN, ids.emile.toUpperCase()],
  // Emile's and Ana's own; the default one, which two people hold in secret-co; nobody's.
  phone: ['+14155550132', '+15105550101', '+13125550187', '+14155550100', '+14155559999'],
};
const pages = [
  { limit: 50, offset: 0 },
  { limit: 1, offset: 0 },
  { limit: 1, offset: 1 },
  { limit: 2, offset: 1 },
  { limit: 1, offset: Number.MAX_SAFE_INTEGER },
];

describe.each(engines)('exact lookups, many at once, on %s', (engine) => {
  let database: ThrowawayDatabase;
  const sets: Record<string, string> = {};
  const companyLists: Record<string, string[]> = { one: ['acme-corp'], two: ['acme-corp', 'globex'], none: [], all: ['acme-corp', 'globex', 'secret-co'] };
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    await importRecords(database.db, smallDataset(), 'US');
    for (const [name, companies] of Object.entries(companyLists)) {
      const id = await insertCredential(database.db, `by-key ${name}`, hashToken(`plk_test_by_key_${name}_000000`), companies);
      const [row] = await database.db.query<{ set: string }>('SELECT company_set_id AS set FROM credentials WHERE id = $1', [id]);
      sets[name] = row!.set;
    }
  });
  afterAll(() => database?.drop());

  for (const key of ['personId', 'phone'] as const) {
    for (const inlineCompaniesMax of [0, 50]) {
      for (const externalIdSystems of [undefined, ['payroll'], ['nothing']]) {
        it(`agrees with findPersons by ${key} (inline up to ${inlineCompaniesMax}, systems ${JSON.stringify(externalIdSystems)})`, async () => {
          let matchedMany = false;
          for (const [name, authorizedCompanies] of Object.entries(companyLists)) {
            const filter = { credentialId: sets[name]!, authorizedCompanies, inlineCompaniesMax, externalIdSystems };
            const asks: PageAsk[] = values[key].flatMap((value) => pages.map((page) => ({ value, ...page })));
            const batch = await findPersonsByKey(database.db, filter, key, asks);
            expect(Date.parse(batch.asOf)).not.toBeNaN();
            for (const [i, ask] of asks.entries()) {
              const alone = await findPersons(database.db, { ...filter, [key]: ask.value, limit: ask.limit, offset: ask.offset });
              expect(batch.answers[i]!.total).toBe(Number(alone[0]!.total));
              expect(batch.answers[i]!.persons).toEqual(alone.flatMap((row) => (row.person === null ? [] : [{ id: row.person_id, json: row.person }])));
              if (batch.answers[i]!.total > 1) matchedMany = true;
            }
          }
          // The asks hold a key several people share, so paging is tested, not only presence.
          if (key === 'phone') expect(matchedMany).toBe(true);
        });
      }
    }
  }

  it('takes a search for a phone or a person id alone as a lookup, and nothing else', () => {
    expect(lookupKeyOf({ phone: '+14155550132' })).toBe('phone');
    expect(lookupKeyOf({ personId: ids.emile })).toBe('personId');
    expect(lookupKeyOf({ phone: '+14155550132', lastName: 'dur' })).toBeUndefined();
    expect(lookupKeyOf({ personId: ids.emile, companyId: 'acme-corp' })).toBeUndefined();
    expect(lookupKeyOf({ phone: '+14155550132', personId: ids.emile })).toBeUndefined();
    expect(lookupKeyOf({ createdFrom: '2024-01-01T00:00:00Z' })).toBeUndefined();
    expect(lookupKeyOf({})).toBeUndefined();
  });

  it('gives each caller of one turn its own answer, at one asOf', async () => {
    const lookups: PersonLookups = personLookups(database);
    const two = { credentialId: sets.two!, authorizedCompanies: companyLists.two!, inlineCompaniesMax: 50 };
    const one = { credentialId: sets.one!, authorizedCompanies: companyLists.one!, inlineCompaniesMax: 50 };
    const all = { credentialId: sets.all!, authorizedCompanies: companyLists.all!, inlineCompaniesMax: 50 };
    const first = { limit: 1, offset: 0 };
    const [emile, emileUpper, hidden, unknown, emileForOne, shared, sharedSecond] = await Promise.all([
      lookups.lookUp(two, 'personId', { value: ids.emile, ...first }),
      lookups.lookUp(two, 'personId', { value: ids.emile.toUpperCase(), ...first }),
      lookups.lookUp(two, 'personId', { value: ids.hidden, ...first }),
      lookups.lookUp(two, 'personId', { value: UNKNOWN, ...first }),
      lookups.lookUp(one, 'personId', { value: ids.emile, ...first }),
      lookups.lookUp(all, 'phone', { value: '+14155550100', limit: 50, offset: 0 }),
      lookups.lookUp(all, 'phone', { value: '+14155550100', limit: 1, offset: 1 }),
    ]);
    expect(emile!.persons.map((p) => p.id)).toEqual([ids.emile]);
    expect(emileUpper).toEqual(emile);
    expect(JSON.parse(emile!.persons[0]!.json).employments).toHaveLength(2);
    expect(JSON.parse(emileForOne!.persons[0]!.json).employments.map((e: any) => e.companyId)).toEqual(['acme-corp']);
    expect(hidden).toEqual({ asOf: emile!.asOf, total: 0, persons: [] });
    expect(unknown).toEqual({ asOf: emile!.asOf, total: 0, persons: [] });
    // Hidden was created first, so comes first.
    expect(shared!.persons.map((p) => p.id)).toEqual([ids.hidden, ids.emile]);
    expect(sharedSecond).toMatchObject({ total: 2, persons: [shared!.persons[1]] });
  });

  it('answers every caller when one turn holds more lookups than a statement takes', async () => {
    const lookups: PersonLookups = personLookups(database);
    const two = { credentialId: sets.two!, authorizedCompanies: companyLists.two!, inlineCompaniesMax: 50 };
    const asking = Array.from({ length: 150 }, (_, i) => [ids.emile, ids.ana, ids.hidden][i % 3]!);
    const answers = await Promise.all(asking.map((value) => lookups.lookUp(two, 'personId', { value, limit: 1, offset: 0 })));
    expect(answers.map((a) => a.persons[0]?.id)).toEqual(asking.map((id) => (id === ids.hidden ? undefined : id)));
  });
});

function personLookups(database: ThrowawayDatabase): PersonLookups {
  const persons = new SqlPersonQueries(database.db);
  return new ExactLookups(persons.findPagesByKey.bind(persons));
}
