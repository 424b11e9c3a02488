// Withheld means never sent (docs/decisions/0020-withheld-fields.md): for a credential
// without a field group, every kind of read names none of the group's columns in its SQL,
// and the Employees it returns lack the group's keys, while a credential granted every
// group reads exactly what it did. The columns of each group are listed here by hand, as
// the tables have them: an oracle apart from the declaration the read path builds from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employeesPlan } from '../../server/db/reads/employees/plan.js';
import { employeesByPhonePlan } from '../../server/db/reads/employeesByPhone/plan.js';
import { statementOf } from '../../server/db/reads/kinds.js';
import { personsPlanner } from '../../server/db/reads/persons/plan.js';
import { personsByKeyPlan } from '../../server/db/reads/personsByKey/plan.js';
import { findEmployees, findPersons, findPersonsByKey } from '../../server/db/reads/queries.js';
import { personFilters } from '../../server/domain/employment.js';
import { everyField, type FieldGroup, type FieldSet, fieldGroupNames } from '../../server/domain/fieldGroups.js';
import { foldName } from '../../server/domain/names.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import { importRecords } from '../../server/importing/index.js';
import { ids, smallDataset, unlinkedRecords } from '../fixtures/small.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const columnsOf: Record<FieldGroup, string[]> = {
  name: ['first_name', 'last_name', 'first_name_folded', 'last_name_folded'],
  dateOfBirth: ['date_of_birth'],
  gender: ['gender'],
  email: ['email'],
  phone: ['phone'],
  address: ['address_line1', 'address_line2', 'city', 'state', 'postal_code'],
  externalIds: ['external_ids'],
  membership: ['membership_status', 'invitation_status', 'invitation_invited_at', 'invitation_expires_at', 'linked_user_status'],
  participation: ['has_participation', 'participation_decision', 'participation_decided_at'],
  coverage: ['coverage_status', 'coverage_starts_at', 'coverage_ends_at', 'coverage_plan_tier'],
};
/** Where each group's values sit in an Employee. */
const pathsOf: Record<FieldGroup, string[][]> = {
  name: [
    ['demographics', 'firstName'],
    ['demographics', 'lastName'],
  ],
  dateOfBirth: [['demographics', 'dateOfBirth']],
  gender: [['demographics', 'gender']],
  email: [['contact', 'email']],
  phone: [['contact', 'phone']],
  address: [['contact', 'address']],
  externalIds: [['externalIds']],
  membership: [['membership']],
  participation: [['participation']],
  coverage: [['coverage']],
};
const has = (employee: Record<string, any>, path: string[]) => {
  const parent = path.slice(0, -1).reduce((at, key) => at?.[key], employee);
  return parent !== undefined && Object.hasOwn(parent, path.at(-1)!);
};

const scope = (fields: FieldSet, extra: Partial<PersonFilter> = {}): PersonFilter => ({
  credentialId: '00000000-0000-4000-8000-000000000001',
  authorizedCompanies: ['acme-corp', 'globex'],
  inlineCompaniesMax: 200,
  limit: 50,
  offset: 0,
  fields,
  fingerprint: 'tests',
  ...extra,
});
const without = (group: FieldGroup) => everyField.filter((g) => g !== group);
/**
 * Every kind's statement for this field set, asking for every external system where it
 * may. Many phone searches at once read the phone column to find them: no credential
 * without the phone group sends one (403), so that kind is left out for it.
 */
const statements = (fields: FieldSet) => {
  const shown = { externalIdSystems: ['payroll'] };
  return [
    statementOf(personsPlanner(personFilters)(scope(fields, { ...shown, companyId: 'acme-corp' }))),
    statementOf(personsPlanner(personFilters)(scope(fields, shown))),
    statementOf(personsByKeyPlan(scope(fields, shown), 'personId', [{ value: ids.emile, limit: 1, offset: 0 }])),
    statementOf(employeesPlan(scope(fields, shown))),
    ...(fields.includes('phone') ? [statementOf(employeesByPhonePlan(scope(fields, shown), [{ value: '+14155550132', limit: 5, offset: 0 }]))] : []),
  ];
};
const namesColumn = (sql: string, column: string) => new RegExp(`\\b[a-z]\\.${column}\\b`).test(sql);

describe('a narrow field set in SQL', () => {
  it.each(fieldGroupNames)('names no column of %s in any kind of read that lacks it', (group) => {
    for (const { sql } of statements(without(group))) {
      for (const column of columnsOf[group]) expect(namesColumn(sql, column), `${group}: ${column}`).toBe(false);
    }
  });

  it('names every group’s columns for a credential granted them all', () => {
    const [search] = statements(everyField);
    for (const group of fieldGroupNames)
      expect(
        columnsOf[group].some((column) => namesColumn(search!.sql, column)),
        group,
      ).toBe(true);
  });

  it('gives the systems parameter only to a field set that shows external ids', () => {
    expect(statementOf(employeesPlan(scope(without('externalIds'), { externalIdSystems: ['payroll'] }))).params).not.toContainEqual(['payroll']);
    expect(statementOf(employeesPlan(scope(everyField, { externalIdSystems: ['payroll'] }))).params).toContainEqual(['payroll']);
  });
});

describe.each(engines)('a narrow field set read on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine);
    await importRecords(database.db, [...smallDataset(), ...unlinkedRecords()], 'US');
  });
  afterAll(() => database?.drop());

  const employmentsOf = async (fields: FieldSet) => {
    const persons = await findPersons(database.db, scope(fields, { lastName: foldName('dur') }));
    const byKey = await findPersonsByKey(database.db, scope(fields), 'personId', [{ value: ids.emile, limit: 1, offset: 0 }]);
    const employees = await findEmployees(database.db, scope(fields));
    return [
      ...[persons, ...byKey].flatMap((page) => page.items.flatMap((item) => JSON.parse(item.json).employments)),
      ...employees.items.map((item) => JSON.parse(item.json)),
    ] as Record<string, any>[];
  };

  it.each(fieldGroupNames)('leaves out every key of %s, and keeps every other', async (group) => {
    const employments = await employmentsOf(without(group));
    expect(employments.length).toBeGreaterThan(3);
    for (const employment of employments) {
      for (const other of fieldGroupNames) for (const path of pathsOf[other]) expect(has(employment, path), `${other} ${path.join('.')}`).toBe(other !== group);
      for (const always of ['id', 'companyId', 'personId', 'createdAt', 'updatedAt', 'demographics', 'contact']) expect(employment).toHaveProperty(always);
    }
  });

  it('reads only ids, times and empty objects for a credential granted no group', async () => {
    for (const employment of await employmentsOf([])) {
      expect(Object.keys(employment).sort()).toEqual(['companyId', 'contact', 'createdAt', 'demographics', 'id', 'personId', 'updatedAt']);
      expect(employment.demographics).toEqual({});
      expect(employment.contact).toEqual({});
    }
  });

  it('reads for a credential of name and email exactly those values, equal to a full read', async () => {
    const full = await employmentsOf(everyField);
    const narrow = await employmentsOf(['name', 'email']);
    expect(narrow).toEqual(
      full.map((e) => ({
        id: e.id,
        companyId: e.companyId,
        personId: e.personId,
        demographics: { firstName: e.demographics.firstName, lastName: e.demographics.lastName },
        contact: { email: e.contact.email },
        createdAt: e.createdAt,
        updatedAt: e.updatedAt,
      })),
    );
  });
});
