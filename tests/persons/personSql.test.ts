// Golden SQL: the statement the person query, the exact lookups and the employees query send
// to the database, for every shape they take (each route, form of authorization, paging and audit), committed as
// text under tests/persons/golden/. A change to the SQL the database receives shows in
// review as a change of these files (`npx vitest run --project fast tests/persons/personSql.test.ts -u`
// rewrites them). What each shape answers is checked on both engines by the model tests;
// this holds the text itself, placeholders and parameters included.
import { describe, expect, it } from 'vitest';
import type { Queryable, QueryOptions } from '../../server/db/engines/database.js';
import type { LookupKey } from '../../server/db/reads/lookups.js';
import { findEmployees, findEmployeesByPhone, findPersons, findPersonsByKey, personQuery } from '../../server/db/reads/queries.js';
import type { AuditInStatement } from '../../server/domain/accessAudit.js';
import type { EmployeeFilter } from '../../server/domain/employees.js';
import { personFilters } from '../../server/domain/employment.js';
import { everyField } from '../../server/domain/fieldGroups.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { everyFieldScope } from '../helpers/readScope.js';

const CREDENTIAL = '00000000-0000-4000-8000-0000000000c1';
/** A cursor's key, as the domain reads it from a cursor. */
const START = { at: '2024-01-15T08:30:00.123456Z', id: '00000000-0000-4000-8000-000000000077' };
const PERSON = '00000000-0000-4000-8000-000000000042';
const companies = (n: number) => Array.from({ length: n }, (_, i) => `co-${i + 1}`);

/** A database that answers nothing (the one row of a statement whose asks matched nothing) and keeps what it was sent: the statement, as text. */
function recorder(): { db: Queryable; sent: () => string } {
  let text = '';
  const db = {
    query: async (sql: string, params: unknown[] = [], options: QueryOptions = {}) => {
      const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
      text = `-- params: ${json(params)}\n-- options: ${json(options)}\n${sql}\n`;
      return [{ as_of: '', ask: null }];
    },
  } as unknown as Queryable;
  return { db, sent: () => text };
}

const filter = (n: number, set: Partial<PersonFilter> = {}): PersonFilter => ({
  ...everyFieldScope,
  credentialId: CREDENTIAL,
  authorizedCompanies: companies(n),
  inlineCompaniesMax: 3,
  limit: 50,
  offset: 0,
  ...set,
});
const audit: AuditInStatement = { credentialId: CREDENTIAL, operation: 'searchPersons', purpose: 'tests', fields: everyField, synchronousCommit: true };

/** Each shape of the person query: a name, the filter, and the audit entry it writes in the statement. */
const shapes: [string, PersonFilter, AuditInStatement?][] = [
  ['listing-one-company', filter(1)],
  ['listing-inline', filter(3)],
  ['listing-joined', filter(5)],
  ['listing-created-range-one-company', filter(1, { createdFrom: '2024-01-01T12:00:00Z', createdBefore: '2024-03-01T00:00:00Z' })],
  ['listing-created-from-joined', filter(5, { createdFrom: '2024-01-01T12:00:00Z' })],
  ['listing-company', filter(3, { companyId: 'co-2', createdBefore: '2024-03-01T00:00:00Z' })],
  ['listing-company-outside', filter(3, { companyId: 'co-9' })],
  ['listing-audited-async', filter(2, { offset: 10_000 }), { ...audit, synchronousCommit: false }],
  ['phone-one-company', filter(1, { phone: '+14155550999' })],
  ['phone-inline', filter(3, { phone: '+14155550999' })],
  ['phone-joined', filter(5, { phone: '+14155550999' })],
  ['person-id-audited', filter(2, { personId: PERSON }), { ...audit, operation: 'getPerson' }],
  ['person-id-joined-audited-async', filter(5, { personId: PERSON }), { ...audit, operation: 'getPerson', synchronousCommit: false }],
  ['last-name-pieces-one-company', filter(1, { lastName: 'durand' })],
  ['last-name-piece-alone', filter(1, { lastName: 'dur' })],
  ['last-name-pieces-inline', filter(3, { lastName: 'durand' })],
  ['last-name-pieces-many-inline', filter(150, { lastName: 'durand' })],
  ['last-name-pieces-joined', filter(151, { lastName: 'durand' })],
  ['last-name-pieces-person-order', filter(5, { lastName: 'durand', companiesOutside: 1 })],
  ['last-name-pieces-person-order-joined', filter(200, { lastName: 'durand', companiesOutside: 10 })],
  ['last-name-pieces-company-not-person-order', filter(5, { lastName: 'durand', companyId: 'co-2', companiesOutside: 1 })],
  ['first-name-pieces', filter(2, { firstName: 'anna' })],
  ['first-name-pieces-person-order', filter(5, { firstName: 'anna', companiesOutside: 0 })],
  ['last-name-dictionary-one-company', filter(1, { lastName: 'du' })],
  ['last-name-dictionary-several', filter(2, { lastName: 'du' })],
  ['first-name-dictionary-leads-short-last-name', filter(1, { firstName: 'anna', lastName: 'du' })],
  ['names-both-short', filter(1, { firstName: 'a', lastName: 'du' })],
  ['last-name-escaped', filter(1, { lastName: 'd%_\\r' })],
  ['names-with-phone', filter(2, { lastName: 'durand', firstName: 'an', phone: '+14155550999' })],
  [
    'names-with-created-range',
    filter(3, { lastName: 'durand', firstName: 'anna', createdFrom: '2024-01-01T00:00:00Z', createdBefore: '2024-02-01T00:00:00Z' }),
  ],
  ['last-name-with-company', filter(3, { lastName: 'durand', companyId: 'co-3' })],
  ['systems-and-read-position', filter(2, { lastName: 'durand', externalIdSystems: ['hr', 'payroll'], readPosition: 42n }), audit],
  // A page asked for by cursor, in every paging: from the rollups (one company, the company set's), collected, in person order.
  ['after-key-listing-one-company', filter(1, { start: START })],
  ['after-key-listing-created-range-joined', filter(5, { start: START, createdFrom: '2024-01-01T12:00:00Z', createdBefore: '2024-03-01T00:00:00Z' })],
  ['after-key-phone-audited', filter(2, { start: START, phone: '+14155550999' }), audit],
  ['after-key-last-name-pieces', filter(3, { start: START, lastName: 'durand' })],
  ['after-key-last-name-pieces-person-order', filter(5, { start: START, lastName: 'durand', companiesOutside: 1 })],
  // Narrow field sets: none of a withheld group's columns is named.
  ['fields-name-email', filter(2, { lastName: 'durand', fields: ['name', 'email'] })],
  ['fields-none-audited', filter(1, { fields: [] }), { ...audit, fields: [] }],
  ['fields-without-external-ids-systems-asked', filter(2, { fields: ['name', 'membership', 'coverage'], externalIdSystems: ['hr'] })],
];

describe('the person query sends', () => {
  for (const [name, shape, entry] of shapes) {
    it(name, async () => {
      const { db, sent } = recorder();
      await findPersons(db, shape, entry);
      await expect(sent()).toMatchFileSnapshot(`golden/persons/${name}.sql`);
    });
  }

  // A filter on a column the name pieces lack (tests/persons/nameRoutes.test.ts) sends a name search to the employees.
  const withCity = personQuery({ ...personFilters, city: { column: 'city', match: 'equals', rollups: 'cannot' } } as const);
  for (const [name, shape] of [
    ['city-with-last-name', { ...filter(3, { lastName: 'durand' }), city: 'Lyon' }],
    ['city-without-names', { ...filter(3), city: 'Lyon' }],
  ] as const) {
    it(name, async () => {
      const { db, sent } = recorder();
      await withCity(db, shape);
      await expect(sent()).toMatchFileSnapshot(`golden/persons/${name}.sql`);
    });
  }
});

describe('the exact lookups send', () => {
  const asks = [
    { value: 'a', limit: 50, offset: 0 },
    { value: 'b', limit: 1, offset: 3 },
  ];
  for (const key of ['phone', 'personId'] satisfies LookupKey[]) {
    for (const [form, n] of [
      ['one-company', 1],
      ['inline', 3],
      ['joined', 5],
    ] as const) {
      it(`${key}-${form}`, async () => {
        const { db, sent } = recorder();
        await findPersonsByKey(db, filter(n), key, asks);
        await expect(sent()).toMatchFileSnapshot(`golden/personsByKey/${key}-${form}.sql`);
      });
    }
  }
  it('systems-and-read-position', async () => {
    const { db, sent } = recorder();
    await findPersonsByKey(db, { ...filter(2), externalIdSystems: ['hr'], readPosition: 7n }, 'personId', asks);
    await expect(sent()).toMatchFileSnapshot('golden/personsByKey/systems-and-read-position.sql');
  });
});

describe('the employees query sends', () => {
  const employees = (n: number, set: Partial<EmployeeFilter> = {}): EmployeeFilter => ({
    ...everyFieldScope,
    credentialId: CREDENTIAL,
    authorizedCompanies: companies(n),
    inlineCompaniesMax: 3,
    limit: 50,
    offset: 0,
    ...set,
  });
  const searched: AuditInStatement = { ...audit, operation: 'searchEmployees' };
  const async = { ...searched, synchronousCommit: false };
  /** Each shape: every form of authorization with and without the audit entry, and each filter that adds a condition. */
  const shapes: [string, EmployeeFilter, AuditInStatement?][] = [
    ['listing-one-company', employees(1)],
    ['listing-inline', employees(3)],
    ['listing-joined', employees(5)],
    ['listing-no-companies', employees(0)],
    ['listing-one-company-audited', employees(1), searched],
    ['listing-inline-audited', employees(3), searched],
    ['listing-joined-audited', employees(5), searched],
    ['listing-one-company-audited-async', employees(1), async],
    ['listing-inline-audited-async', employees(3, { limit: 2, offset: 4 }), async],
    ['listing-joined-audited-async', employees(5), async],
    ['company', employees(3, { companyId: 'co-2' })],
    ['first-name', employees(3, { firstName: 'anna' })],
    ['last-name', employees(1, { lastName: 'durand' })],
    ['after-key-listing-joined-audited', employees(5, { start: START }), searched],
    ['after-key-last-name', employees(1, { start: START, lastName: 'durand' })],
    ['fields-name-email', employees(3, { fields: ['name', 'email'] })],
    ['last-name-escaped', employees(1, { lastName: 'd%_\\r' })],
    ['names-both-audited-async', employees(3, { firstName: 'émi', lastName: 'dur', externalIdSystems: ['payroll'], limit: 2, offset: 4 }), async],
    ['phone', employees(3, { phone: '+14155550132' })],
    ['phone-audited', employees(3, { phone: '+14155550132' }), searched],
    ['phone-one-company', employees(1, { phone: '+14155550132' })],
    ['created-from', employees(1, { createdFrom: '2024-01-01T12:00:00Z' })],
    ['created-before-joined', employees(5, { createdBefore: '2024-03-01T00:00:00Z' })],
    ['company-created-range-joined', employees(5, { companyId: 'co-2', createdFrom: '2026-01-01T00:00:00Z', createdBefore: '2026-02-01T00:00:00Z' })],
    [
      'every-filter-joined-audited',
      employees(5, {
        companyId: 'co-3',
        firstName: 'an',
        lastName: 'durand',
        phone: '+14155550999',
        createdFrom: '2024-01-01T00:00:00Z',
        createdBefore: '2024-02-01T00:00:00Z',
      }),
      searched,
    ],
    ['systems-none', employees(2, { externalIdSystems: [] })],
    ['systems-and-read-position', employees(2, { lastName: 'durand', externalIdSystems: ['hr', 'payroll'], readPosition: 42n }), searched],
  ];
  for (const [name, shape, entry] of shapes) {
    it(name, async () => {
      const { db, sent } = recorder();
      await findEmployees(db, shape, entry);
      await expect(sent()).toMatchFileSnapshot(`golden/employees/${name}.sql`);
      // Every placeholder has its parameter, and every parameter its placeholder.
      const [, params, sql] = sent().match(/^-- params: (.*)\n-- options: .*\n([\s\S]*)$/)!;
      const used = new Set([...sql!.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
      expect([...used].sort((a, b) => a - b)).toEqual((JSON.parse(params!) as unknown[]).map((_, i) => i + 1));
    });
  }
});

describe('the employees phone lookups send', () => {
  const asks = [
    { value: '+14155550132', limit: 50, offset: 0 },
    { value: '+12125550199', limit: 1, offset: 3 },
  ];
  for (const [form, n] of [
    ['one-company', 1],
    ['inline', 3],
    ['joined', 5],
  ] as const) {
    it(`phone-${form}`, async () => {
      const { db, sent } = recorder();
      await findEmployeesByPhone(db, filter(n), asks);
      await expect(sent()).toMatchFileSnapshot(`golden/employeesByPhone/phone-${form}.sql`);
    });
  }
  it('systems-and-read-position', async () => {
    const { db, sent } = recorder();
    await findEmployeesByPhone(db, { ...filter(2), externalIdSystems: ['hr'], readPosition: 7n }, asks);
    await expect(sent()).toMatchFileSnapshot('golden/employeesByPhone/systems-and-read-position.sql');
  });
});
