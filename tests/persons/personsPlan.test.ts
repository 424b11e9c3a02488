// The person query's plan (server/db/reads/persons/plan.ts), without a database: from a
// filter and a credential, which name route, which form of authorization, which
// conditions in which order, and how the page is cut. What each plan answers is checked on
// both engines by the model tests; its SQL by tests/persons/personSql.test.ts.
import { describe, expect, it } from 'vitest';
import { personsPlanner } from '../../server/db/reads/persons/plan.js';
import { personsByKeyPlan } from '../../server/db/reads/personsByKey/plan.js';
import { personFilters } from '../../server/domain/employment.js';
import { everyField } from '../../server/domain/fieldGroups.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { everyFieldScope } from '../helpers/readScope.js';

const CREDENTIAL = '00000000-0000-4000-8000-0000000000c1';
const PERSON = '00000000-0000-4000-8000-000000000042';
const companies = (n: number) => Array.from({ length: n }, (_, i) => `co-${i + 1}`);
const filter = (n: number, set: Partial<PersonFilter> = {}): PersonFilter => ({
  ...everyFieldScope,
  credentialId: CREDENTIAL,
  authorizedCompanies: companies(n),
  inlineCompaniesMax: 3,
  limit: 50,
  offset: 0,
  ...set,
});
const plan = personsPlanner(personFilters);
const rule = personFilters;

describe('the person query plans', () => {
  it('a listing of one company: the company inline, counted from its rollup, both creation bounds passed', () => {
    const listing = plan(filter(1, { createdFrom: '2024-01-01T00:00:00Z' }));
    expect(listing).toMatchObject({
      route: { route: 'none' },
      authorization: { form: 'company', company: 'co-1' },
      source: 'employees',
      matchesHeldBy: 'condition',
      paging: { kind: 'rollups', rollup: { table: 'people_by_company_day', key: 'co-1' }, createdFrom: 'createdFrom', createdBefore: 'createdBefore' },
    });
    expect(listing.conditions).toEqual([
      { kind: 'filter', name: 'createdFrom', rule: rule.createdFrom, value: '2024-01-01T00:00:00Z' },
      { kind: 'filter', name: 'createdBefore', rule: rule.createdBefore, value: null },
    ]);
  });

  it('a listing past the inline limit: the company set joined, counted from the credential rollup', () => {
    expect(plan(filter(4))).toMatchObject({
      authorization: { form: 'company set', credentialId: CREDENTIAL },
      matchesHeldBy: 'join',
      paging: { kind: 'rollups', rollup: { table: 'people_by_credential_day', key: CREDENTIAL } },
      conditions: [
        { kind: 'filter', name: 'createdFrom', value: null },
        { kind: 'filter', name: 'createdBefore', value: null },
      ],
    });
  });

  it('a company outside the credential: no rollup, the nobody it selects collected', () => {
    const outside = plan(filter(3, { companyId: 'co-9' }));
    expect(outside.paging).toEqual({ kind: 'collected' });
    expect(outside.authorization).toEqual({ form: 'companies', companies: companies(3) });
    expect(outside.conditions).toEqual([{ kind: 'filter', name: 'companyId', rule: rule.companyId, value: 'co-9' }]);
  });

  it('a last name of three or more: its pieces, inline up to 50 times the limit, then joined', () => {
    const inline = plan(filter(150, { lastName: 'durand' }));
    expect(inline).toMatchObject({
      source: 'last_name_pieces',
      authorization: { form: 'companies' },
      matchesHeldBy: 'condition',
      paging: { kind: 'collected' },
    });
    expect(inline.conditions).toEqual([
      { kind: 'piece', piece: 'dur', personOrder: false },
      { kind: 'filter', name: 'lastName', rule: rule.lastName, value: 'durand' },
    ]);
    expect(plan(filter(151, { lastName: 'durand' }))).toMatchObject({ authorization: { form: 'company set' }, matchesHeldBy: 'join' });
  });

  it('a fragment of exactly three characters is its piece: nothing else to check', () => {
    expect(plan(filter(1, { lastName: 'dur' })).conditions).toEqual([{ kind: 'piece', piece: 'dur', personOrder: false }]);
  });

  it('a name over nearly every company: its pieces in person order, held by the companies outside', () => {
    const personOrder = plan(filter(5, { firstName: 'anna', companiesOutside: 1 }));
    expect(personOrder).toMatchObject({
      source: 'first_name_pieces',
      matchesHeldBy: 'companies outside',
      paging: { kind: 'person order', credentialId: CREDENTIAL },
      conditions: [
        { kind: 'piece', piece: 'ann', personOrder: true },
        { kind: 'filter', name: 'firstName' },
      ],
    });
    // Not with a company filter, nor when the credential lacks more than one in five.
    expect(plan(filter(5, { firstName: 'anna', companiesOutside: 1, companyId: 'co-2' })).paging.kind).toBe('collected');
    expect(plan(filter(5, { firstName: 'anna', companiesOutside: 2 })).paging.kind).toBe('collected');
  });

  it('short names over several companies: the dictionary, through the company set whatever their number', () => {
    const short = plan(filter(2, { lastName: 'du', firstName: 'an' }));
    expect(short).toMatchObject({ route: { route: 'dictionary', lead: 'last' }, authorization: { form: 'company set' }, matchesHeldBy: 'join' });
    expect(short.conditions).toEqual([
      { kind: 'dictionary', lead: 'last', fragment: 'du', rule: rule.lastName },
      { kind: 'filter', name: 'firstName', rule: rule.firstName, value: 'an' },
    ]);
    expect(plan(filter(1, { lastName: 'du' })).authorization).toEqual({ form: 'company', company: 'co-1' });
  });

  it('a long first name with a short last name: the first-name dictionary leads, the last name checked', () => {
    expect(plan(filter(1, { firstName: 'anna', lastName: 'du' })).conditions).toEqual([
      { kind: 'dictionary', lead: 'first', fragment: 'anna', rule: rule.firstName },
      { kind: 'filter', name: 'lastName', rule: rule.lastName, value: 'du' },
    ]);
  });

  it('names with a phone: checked on the rows the phone finds, in the declared order, names where the first is declared', () => {
    const row = plan(filter(2, { companyId: 'co-2', lastName: 'durand', firstName: 'an', phone: '+14155550999' }));
    expect(row).toMatchObject({ route: { route: 'row' }, source: 'employees', paging: { kind: 'collected' } });
    expect(row.conditions.map((c) => c.kind === 'filter' && c.name)).toEqual(['companyId', 'lastName', 'firstName', 'phone']);
  });

  it('an audited person id: the entry names it, to be written if it matched nobody', () => {
    const audit = { credentialId: CREDENTIAL, operation: 'getPerson', purpose: 'tests', fields: everyField, synchronousCommit: false } as const;
    expect(plan(filter(2, { personId: PERSON }), audit).audit).toEqual({ ...audit, personId: PERSON });
    expect(plan(filter(2, { phone: '+14155550999' })).audit).toBeUndefined();
  });
});

describe('the exact lookups plan', () => {
  const asks = [{ value: PERSON, limit: 50, offset: 0 }];
  it('the same authorization as the person query: inline up to the limit, then the company set', () => {
    const lookup = { ...everyFieldScope, credentialId: CREDENTIAL, inlineCompaniesMax: 3, limit: 50, offset: 0 };
    expect(personsByKeyPlan({ ...lookup, authorizedCompanies: companies(1) }, 'personId', asks)).toMatchObject({
      kind: 'persons by key',
      authorization: { form: 'company', company: 'co-1' },
      rule: rule.personId,
    });
    expect(personsByKeyPlan({ ...lookup, authorizedCompanies: companies(3) }, 'phone', asks).authorization.form).toBe('companies');
    expect(personsByKeyPlan({ ...lookup, authorizedCompanies: companies(4) }, 'phone', asks).authorization.form).toBe('company set');
  });
});
