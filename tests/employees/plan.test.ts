// The employees query as a plan and its SQL, without a database: which authorization form
// each credential gets, which conditions each filter adds (in declared order, names as
// literal LIKE patterns), and the rendered statement held to golden files
// (tests/employees/golden/; a change of the SQL shows in review as a change of those).
import { describe, expect, it } from 'vitest';
import { planEmployeeSearch } from '../../server/db/employees/plan.js';
import { renderEmployeeSearch } from '../../server/db/employees/render.js';
import type { EmployeeFilter } from '../../server/domain/employees.js';

const base: EmployeeFilter = {
  credentialId: '11111111-1111-4111-8111-111111111111',
  authorizedCompanies: ['acme-corp', 'globex'],
  inlineCompaniesMax: 50,
  limit: 50,
  offset: 0,
};
const audit = { credentialId: '22222222-2222-4222-8222-222222222222', operation: 'searchEmployees' as const, synchronousCommit: false };

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

describe('the employees statement', () => {
  const cases: [string, EmployeeFilter, typeof audit | undefined][] = [
    ['listing-one-company', { ...base, authorizedCompanies: ['acme-corp'] }, undefined],
    ['names-inline-audited', { ...base, firstName: 'émi', lastName: 'dur', externalIdSystems: ['payroll'], limit: 2, offset: 4 }, audit],
    [
      'range-joined',
      { ...base, inlineCompaniesMax: 0, companyId: 'globex', createdFrom: '2026-01-01T00:00:00Z', createdBefore: '2026-02-01T00:00:00Z' },
      undefined,
    ],
    ['phone-audited-flushed', { ...base, phone: '+14155550132' }, { ...audit, synchronousCommit: true }],
  ];
  it.each(cases)('%s', async (name, filter, auditing) => {
    const { text, params } = renderEmployeeSearch(planEmployeeSearch(filter, auditing));
    await expect(`${text}\n-- parameters: ${JSON.stringify(params)}\n`).toMatchFileSnapshot(`golden/${name}.sql`);
    // Every placeholder has its parameter, and every parameter its placeholder.
    const used = new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
    expect([...used].sort((a, b) => a - b)).toEqual(params.map((_, i) => i + 1));
  });
});
