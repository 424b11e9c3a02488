// The coalesced statement of exact lookups (server/db/reads/personsByKey/) answers each ask
// exactly as the person query (findPersons) answers it alone: the same total and the same
// page, person by person, under each form of authorization (one company, an inline list,
// the joined company set), with or without a choice of external systems, for a person id
// or a phone, on any page; and one batch holds many callers' asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExactLookups, type LookupKey, lookupKeyOf } from '../../server/db/reads/lookups.js';
import type { PageAsk } from '../../server/db/reads/plans.js';
import { findPersons, findPersonsByKey } from '../../server/db/reads/queries.js';
import { insertCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { readsEverything } from '../fixtures/credentials.js';
import { ids, smallDataset } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

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
      const id = await insertCredential(database.db, {
        name: `by-key ${name}`,
        tokenHash: hashToken(`plk_test_by_key_${name}_000000`),
        companies,
        ...readsEverything,
      });
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
            const filter = { ...everyFieldScope, credentialId: sets[name]!, authorizedCompanies, inlineCompaniesMax, externalIdSystems, limit: 50, offset: 0 };
            const asks: PageAsk[] = values[key].flatMap((value) => pages.map((page) => ({ value, ...page })));
            const batch = await findPersonsByKey(database.db, filter, key, asks);
            expect(Date.parse(batch[0]!.asOf)).not.toBeNaN();
            for (const [i, ask] of asks.entries()) {
              // One statement, one snapshot: every page of the batch has its asOf.
              const { asOf, ...page } = batch[i]!;
              expect(asOf).toBe(batch[0]!.asOf);
              const { asOf: _, ...alone } = await findPersons(database.db, { ...filter, [key]: ask.value, limit: ask.limit, offset: ask.offset });
              expect(page, `${name} ${ask.value} ${ask.limit}/${ask.offset}`).toEqual(alone);
              if (page.total > 1) matchedMany = true;
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

  it('gives each caller of one turn its own page, at one asOf', async () => {
    const lookups = personLookups(database);
    const two = scope('two');
    const one = scope('one');
    const all = scope('all');
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
    expect(emile!.items.map((p) => p.id)).toEqual([ids.emile]);
    expect(emileUpper).toEqual(emile);
    expect(JSON.parse(emile!.items[0]!.json).employments).toHaveLength(2);
    expect(JSON.parse(emileForOne!.items[0]!.json).employments.map((e: any) => e.companyId)).toEqual(['acme-corp']);
    expect(hidden).toEqual({ asOf: emile!.asOf, total: 0, offset: 0, items: [] });
    expect(unknown).toEqual({ asOf: emile!.asOf, total: 0, offset: 0, items: [] });
    // Hidden was created first, so comes first.
    expect(shared!.items.map((p) => p.id)).toEqual([ids.hidden, ids.emile]);
    expect(sharedSecond).toMatchObject({ total: 2, offset: 1, items: [shared!.items[1]] });
  });

  it('answers every caller when one turn holds more lookups than a statement takes', async () => {
    const lookups = personLookups(database);
    const two = scope('two');
    const asking = Array.from({ length: 150 }, (_, i) => [ids.emile, ids.ana, ids.hidden][i % 3]!);
    const answers = await Promise.all(asking.map((value) => lookups.lookUp(two, 'personId', { value, limit: 1, offset: 0 })));
    expect(answers.map((a) => a.items[0]?.id)).toEqual(asking.map((id) => (id === ids.hidden ? undefined : id)));
  });

  /** The scope of the credential of these companies (`companyLists`), every field shown. */
  const scope = (name: string) => ({
    ...everyFieldScope,
    credentialId: sets[name]!,
    authorizedCompanies: companyLists[name]!,
    inlineCompaniesMax: 50,
    limit: 50,
    offset: 0,
  });
});

function personLookups(database: ThrowawayDatabase): ExactLookups<LookupKey> {
  return new ExactLookups((scope, key, asks) => findPersonsByKey(database.db, scope, key, asks));
}
