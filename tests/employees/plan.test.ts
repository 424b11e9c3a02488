// The employees query as a plan, without a database: which authorization form each
// credential gets, which conditions each filter adds (in declared order, names as literal
// LIKE patterns). The SQL each shape sends is held by tests/persons/personSql.test.ts.
import { describe, expect, it } from 'vitest';
import { planEmployeeSearch } from '../../server/db/employees/plan.js';
import type { EmployeeFilter } from '../../server/domain/employees.js';

const base: EmployeeFilter = {
  credentialId: '11111111-1111-4111-8111-111111111111',
  authorizedCompanies: ['acme-corp', 'globex'],
  inlineCompaniesMax: 50,
  limit: 50,
  offset: 0,
};

describe('the employees plan', () => {
  it('authorizes one company by equality, a few inline, many through credential_companies', () => {
    expect(planEmployeeSearch({ ...base, authorizedCompanies: ['acme-corp'] }).authorization).toEqual({ form: 'single', company: 'acme-corp' });
    expect(planEmployeeSearch(base).authorization).toEqual({ form: 'inline', companies: ['acme-corp', 'globex'] });
    expect(planEmployeeSearch({ ...base, inlineCompaniesMax: 1 }).authorization).toEqual({ form: 'joined', companySet: base.credentialId });
    expect(planEmployeeSearch({ ...base, authorizedCompanies: [] }).authorization).toEqual({ form: 'inline', companies: [] });
  });

  it('adds one condition per set filter, in declared order, a name as a literal pattern', () => {
    const plan = planEmployeeSearch({ ...base, createdBefore: '2026-01-01T00:00:00Z', lastName: '50%_off\\', companyId: 'globex', phone: '+14155550132' });
    expect(plan.conditions.map((c) => [c.rule.column, c.rule.match, c.parameter])).toEqual([
      ['company_id', 'equals', 'globex'],
      ['last_name_folded', 'contains', '%50\\%\\_off\\\\%'],
      ['phone', 'equals', '+14155550132'],
      ['created_at', 'below', '2026-01-01T00:00:00Z'],
    ]);
    expect(planEmployeeSearch(base).conditions).toEqual([]);
  });
});
