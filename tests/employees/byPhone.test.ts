// The coalesced statement of Search employees' phone lookups (employeeQueries.ts
// findPagesByPhone) answers each ask exactly as the employees query (findPage) answers
// that phone alone: the same total and the same page, employment by employment, under
// each form of authorization (an inline list of one or more, the joined company set), with
// or without a choice of external systems, on any page; and one turn's callers, through
// operations/exactLookups.ts, each get their own answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlEmployeeQueries } from '../../server/db/persons/employeeQueries.js';
import { insertCredential } from '../../server/db/stores/credentials.js';
import type { EmployeeAnswer } from '../../server/domain/employeeQueries.js';
import { phoneLookupOf } from '../../server/domain/employees.js';
import type { PageAsk } from '../../server/domain/personQueries.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { ExactLookups } from '../../server/operations/exactLookups.js';
import { ids, smallDataset, unlinkedRecords } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

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
  let employees: SqlEmployeeQueries;
  const sets: Record<string, string> = {};
  const companyLists: Record<string, string[]> = { one: ['acme-corp'], two: ['acme-corp', 'globex'], none: [], all: ['acme-corp', 'globex', 'secret-co'] };
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    await importRecords(database.db, [...smallDataset(), ...unlinkedRecords()], 'US');
    employees = new SqlEmployeeQueries(database.db);
    for (const [name, companies] of Object.entries(companyLists)) {
      const id = await insertCredential(database.db, `by-phone ${name}`, hashToken(`plk_test_by_phone_${name}_00000`), companies);
      const [row] = await database.db.query<{ set: string }>('SELECT company_set_id AS set FROM credentials WHERE id = $1', [id]);
      sets[name] = row!.set;
    }
  });
  afterAll(() => database?.drop());

  for (const inlineCompaniesMax of [0, 50]) {
    for (const externalIdSystems of [undefined, ['payroll'], ['nothing']]) {
      it(`agrees with findPage (inline up to ${inlineCompaniesMax}, systems ${JSON.stringify(externalIdSystems)})`, async () => {
        let matchedMany = false;
        for (const [name, authorizedCompanies] of Object.entries(companyLists)) {
          const scope = { credentialId: sets[name]!, authorizedCompanies, inlineCompaniesMax, externalIdSystems };
          const asks: PageAsk[] = phones.flatMap((value) => pages.map((page) => ({ value, ...page })));
          const batch = await employees.findPagesByPhone(scope, asks);
          expect(Date.parse(batch.asOf)).not.toBeNaN();
          for (const [i, ask] of asks.entries()) {
            const { asOf: _, ...alone } = await employees.findPage({ ...scope, phone: ask.value, limit: ask.limit, offset: ask.offset });
            expect(batch.answers[i], `${name} ${ask.value} ${ask.limit}/${ask.offset}`).toEqual(alone);
            if (batch.answers[i]!.total > 1) matchedMany = true;
          }
        }
        // A phone two records share, so paging is tested, not only presence.
        expect(matchedMany).toBe(true);
      });
    }
  }

  it('takes a search for a phone alone as a lookup, and nothing else', () => {
    const scope = { credentialId: ids.emile, authorizedCompanies: [], inlineCompaniesMax: 50, limit: 50, offset: 0 };
    expect(phoneLookupOf({ ...scope, phone: '+14155550132' })).toBe('+14155550132');
    expect(phoneLookupOf({ ...scope, phone: '+14155550132', lastName: 'dur' })).toBeUndefined();
    expect(phoneLookupOf({ ...scope, phone: '+14155550132', companyId: 'acme-corp' })).toBeUndefined();
    expect(phoneLookupOf({ ...scope, phone: '+14155550132', createdFrom: '2024-01-01T00:00:00Z' })).toBeUndefined();
    expect(phoneLookupOf({ ...scope, lastName: 'dur' })).toBeUndefined();
    expect(phoneLookupOf(scope)).toBeUndefined();
  });

  it("gives each caller of one turn its own answer, at one asOf, also past a statement's share", async () => {
    const lookups = new ExactLookups<'phone', EmployeeAnswer>((scope, _phone, asks) => employees.findPagesByPhone(scope, asks));
    const two = { credentialId: sets.two!, authorizedCompanies: companyLists.two!, inlineCompaniesMax: 50 };
    const one = { credentialId: sets.one!, authorizedCompanies: companyLists.one!, inlineCompaniesMax: 50 };
    const asking = Array.from({ length: 150 }, (_, i) => phones[i % phones.length]!);
    const [shared, second, forOne, ...many] = await Promise.all([
      lookups.lookUp(two, 'phone', { value: phones[0]!, limit: 50, offset: 0 }),
      lookups.lookUp(two, 'phone', { value: phones[0]!, limit: 1, offset: 1 }),
      lookups.lookUp(one, 'phone', { value: phones[1]!, limit: 50, offset: 0 }),
      ...asking.map((value) => lookups.lookUp(two, 'phone', { value, limit: 50, offset: 0 })),
    ]);
    expect(shared!.employees.map((e) => e.id)).toEqual([ids.unlinked, ids.unlinkedAcmeLater]);
    expect(second).toMatchObject({ asOf: shared!.asOf, total: 2, employees: [shared!.employees[1]] });
    expect(forOne).toEqual({ asOf: forOne!.asOf, total: 0, employees: [] });
    const expected = { [phones[0]!]: 2, [phones[1]!]: 1, [phones[2]!]: 0, [phones[3]!]: 0 };
    expect(many.map((answer) => answer.total)).toEqual(asking.map((phone) => expected[phone]));
  });
});
