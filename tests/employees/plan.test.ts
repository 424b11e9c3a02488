// The employees query as a plan (server/db/reads/employees/plan.ts), without a database:
// which form of authorization each credential gets (the person query's), which conditions
// each filter adds (in declared order, names passed as literal LIKE patterns), and what it
// carries through. The SQL each shape sends is held by tests/persons/personSql.test.ts.
import { describe, expect, it } from 'vitest';
import { employeesPlan } from '../../server/db/reads/employees/plan.js';
import { employeesByPhonePlan } from '../../server/db/reads/employeesByPhone/plan.js';
import { conditionParameters } from '../../server/db/reads/sqlParts.js';
import type { EmployeeFilter } from '../../server/domain/employees.js';
import { everyField } from '../../server/domain/fieldGroups.js';
import { everyFieldScope } from '../helpers/readScope.js';

const base: EmployeeFilter = {
  ...everyFieldScope,
  credentialId: '11111111-1111-4111-8111-111111111111',
  authorizedCompanies: ['acme-corp', 'globex'],
  inlineCompaniesMax: 50,
  limit: 50,
  offset: 0,
};

describe('the employees plan', () => {
  it('authorizes as the person query does: one company by equality, a few inline, many through the company set', () => {
    expect(employeesPlan({ ...base, authorizedCompanies: ['acme-corp'] }).authorization).toEqual({ form: 'company', company: 'acme-corp' });
    expect(employeesPlan(base).authorization).toEqual({ form: 'companies', companies: ['acme-corp', 'globex'] });
    expect(employeesPlan({ ...base, inlineCompaniesMax: 1 }).authorization).toEqual({ form: 'company set', credentialId: base.credentialId });
    expect(employeesPlan({ ...base, inlineCompaniesMax: 2 }).authorization.form).toBe('companies');
    expect(employeesPlan({ ...base, authorizedCompanies: [] }).authorization).toEqual({ form: 'companies', companies: [] });
  });

  it('authorizes a phone search of one company as an array, so the phone index is read, not the company range', () => {
    const phone = '+14155550132';
    expect(employeesPlan({ ...base, authorizedCompanies: ['acme-corp'], phone }).authorization).toEqual({ form: 'companies', companies: ['acme-corp'] });
    expect(employeesPlan({ ...base, phone }).authorization).toEqual({ form: 'companies', companies: ['acme-corp', 'globex'] });
    expect(employeesPlan({ ...base, inlineCompaniesMax: 1, phone }).authorization).toEqual({ form: 'company set', credentialId: base.credentialId });
  });

  it('plans many phone searches as one, authorized as a phone search alone is, carrying the asks, systems and read position', () => {
    const asks = [{ value: '+14155550132', limit: 50, offset: 0 }];
    const one = { ...base, authorizedCompanies: ['acme-corp'], externalIdSystems: ['hr'], readPosition: 3n };
    expect(employeesByPhonePlan(one, asks)).toEqual({
      kind: 'employees by phone',
      authorization: { form: 'companies', companies: ['acme-corp'] },
      asks,
      fields: everyField,
      externalIdSystems: ['hr'],
      readPosition: 3n,
    });
    expect(employeesByPhonePlan({ ...base, inlineCompaniesMax: 1 }, asks).authorization).toEqual({ form: 'company set', credentialId: base.credentialId });
  });

  it('adds one condition per set filter, in declared order, a name passed as a literal pattern', () => {
    const plan = employeesPlan({ ...base, createdBefore: '2026-01-01T00:00:00Z', lastName: '50%_off\\', companyId: 'globex', phone: '+14155550132' });
    expect(plan.conditions.map((c) => c.kind === 'filter' && [c.name, c.rule.column, c.rule.match, c.value])).toEqual([
      ['companyId', 'company_id', 'equals', 'globex'],
      ['lastName', 'last_name_folded', 'contains', '50%_off\\'],
      ['phone', 'phone', 'equals', '+14155550132'],
      ['createdBefore', 'created_at', 'below', '2026-01-01T00:00:00Z'],
    ]);
    expect(plan.conditions.flatMap(conditionParameters)).toEqual([
      ['filter companyId', 'globex'],
      ['filter lastName', '%50\\%\\_off\\\\%'],
      ['filter phone', '+14155550132'],
      ['filter createdBefore', '2026-01-01T00:00:00Z'],
    ]);
    expect(employeesPlan(base).conditions).toEqual([]);
  });

  it('carries the page, the systems shown, the read position and the audit entry through', () => {
    const audit = { credentialId: base.credentialId, operation: 'searchEmployees' as const, purpose: 'tests', fields: everyField, synchronousCommit: false };
    expect(employeesPlan({ ...base, limit: 2, offset: 4, externalIdSystems: ['hr'], readPosition: 9n }, audit)).toEqual({
      kind: 'employees',
      authorization: { form: 'companies', companies: ['acme-corp', 'globex'] },
      conditions: [],
      limit: 2,
      offset: 4,
      fields: everyField,
      externalIdSystems: ['hr'],
      audit,
      readPosition: 9n,
    });
  });
});
