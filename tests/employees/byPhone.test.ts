// The coalesced statement of Search employees' phone lookups (db/reads/queries.ts
// findEmployeesByPhone) answers each ask exactly as the employees query (findEmployees)
// answers that phone alone: the same total and the same page, employment by employment,
// under each form of authorization (an inline list of one or more, the joined company
// set), with or without a choice of external systems, on any page; and one turn's callers,
// through db/reads/lookups.ts, each get their own page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExactLookups, phoneLookupOf } from '../../server/db/reads/lookups.js';
import type { PageAsk } from '../../server/db/reads/plans.js';
import { findEmployees, findEmployeesByPhone } from '../../server/db/reads/queries.js';
import { insertCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { readsEverything } from '../fixtures/credentials.js';
import { ids, smallDataset, unlinkedRecords } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { everyFieldScope } from '../helpers/readScope.js';

// Two unlinked acme-corp records share the first; globex's own; a linked person's only; nobody's.
const phones = ['+14155550132', '+12125550199', '+15105550101', '+14155559999'];
const pages = [
  { limit: 50, offset: 0 },
  { limit: 1, offset: 0 },
  { limit: 1, offset: 1 },
  { limit: 2, offset: 1 },
  { limit: 1, offset: Number.MAX_SAFE_INTEGER },
];

describe.each(engines)('Search employees by phone, many at once, on %s', (engine) => {
  let database: ThrowawayDatabase;
  const sets: Record<string, string> = {};
  const companyLists: Record<string, string[]> = { one: ['acme-corp'], two: ['acme-corp', 'globex'], none: [], all: ['acme-corp', 'globex', 'secret-co'] };
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    await importRecords(database.db, [...smallDataset(), ...unlinkedRecords()], 'US');
    for (const [name, companies] of Object.entries(companyLists)) {
      const id = await insertCredential(database.db, {
        name: `by-phone ${name}`,
        tokenHash: hashToken(`plk_test_by_phone_${name}_00000`),
        companies,
        ...readsEverything,
      });
      const [row] = await database.db.query<{ set: string }>('SELECT company_set_id AS set FROM credentials WHERE id = $1', [id]);
      sets[name] = row!.set;
    }
  });
  afterAll(() => database?.drop());

  for (const inlineCompaniesMax of [0, 50]) {
    for (const externalIdSystems of [undefined, ['payroll'], ['nothing']]) {
      it(`agrees with findEmployees (inline up to ${inlineCompaniesMax}, systems ${JSON.stringify(externalIdSystems)})`, async () => {
        let matchedMany = false;
        for (const [name, authorizedCompanies] of Object.entries(companyLists)) {
          const scope = { ...everyFieldScope, credentialId: sets[name]!, authorizedCompanies, inlineCompaniesMax, externalIdSystems, limit: 50, offset: 0 };
          const asks: PageAsk[] = phones.flatMap((value) => pages.map((page) => ({ value, ...page })));
          const batch = await findEmployeesByPhone(database.db, scope, asks);
          expect(Date.parse(batch[0]!.asOf)).not.toBeNaN();
          for (const [i, ask] of asks.entries()) {
            // One statement, one snapshot: every page of the batch has its asOf.
            const { asOf, ...page } = batch[i]!;
            expect(asOf).toBe(batch[0]!.asOf);
            const { asOf: _, ...alone } = await findEmployees(database.db, { ...scope, phone: ask.value, limit: ask.limit, offset: ask.offset });
            expect(page, `${name} ${ask.value} ${ask.limit}/${ask.offset}`).toEqual(alone);
            if (page.total > 1) matchedMany = true;
          }
        }
        // A phone two records share, so paging is tested, not only presence.
        expect(matchedMany).toBe(true);
      });
    }
  }

  it('takes a search for a phone alone as a lookup, and nothing else', () => {
    const scope = { ...everyFieldScope, credentialId: ids.emile, authorizedCompanies: [], inlineCompaniesMax: 50, limit: 50, offset: 0 };
    expect(phoneLookupOf({ ...scope, phone: '+14155550132' })).toBe('+14155550132');
    expect(phoneLookupOf({ ...scope, phone: '+14155550132', lastName: 'dur' })).toBeUndefined();
    expect(phoneLookupOf({ ...scope, phone: '+14155550132', companyId: 'acme-corp' })).toBeUndefined();
    expect(phoneLookupOf({ ...scope, phone: '+14155550132', createdFrom: '2024-01-01T00:00:00Z' })).toBeUndefined();
    expect(phoneLookupOf({ ...scope, lastName: 'dur' })).toBeUndefined();
    expect(phoneLookupOf(scope)).toBeUndefined();
  });

  it("gives each caller of one turn its own page, at one asOf, also past a statement's share", async () => {
    const lookups = new ExactLookups<'phone'>((scope, _phone, asks) => findEmployeesByPhone(database.db, scope, asks));
    const two = { ...everyFieldScope, credentialId: sets.two!, authorizedCompanies: companyLists.two!, inlineCompaniesMax: 50, limit: 50, offset: 0 };
    const one = { ...everyFieldScope, credentialId: sets.one!, authorizedCompanies: companyLists.one!, inlineCompaniesMax: 50, limit: 50, offset: 0 };
    const asking = Array.from({ length: 150 }, (_, i) => phones[i % phones.length]!);
    const [shared, second, forOne, ...many] = await Promise.all([
      lookups.lookUp(two, 'phone', { value: phones[0]!, limit: 50, offset: 0 }),
      lookups.lookUp(two, 'phone', { value: phones[0]!, limit: 1, offset: 1 }),
      lookups.lookUp(one, 'phone', { value: phones[1]!, limit: 50, offset: 0 }),
      ...asking.map((value) => lookups.lookUp(two, 'phone', { value, limit: 50, offset: 0 })),
    ]);
    expect(shared!.items.map((e) => e.id)).toEqual([ids.unlinked, ids.unlinkedAcmeLater]);
    expect(second).toMatchObject({ asOf: shared!.asOf, total: 2, offset: 1, items: [shared!.items[1]] });
    expect(forOne).toEqual({ asOf: forOne!.asOf, total: 0, offset: 0, items: [] });
    const expected = { [phones[0]!]: 2, [phones[1]!]: 1, [phones[2]!]: 0, [phones[3]!]: 0 };
    expect(many.map((page) => page.total)).toEqual(asking.map((phone) => expected[phone]));
  });
});
