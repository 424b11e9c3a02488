// Each search filter declares whether the people rollups can count it (server/db/reads/personFilters.ts):
// a listing counts from the rollups only when every filter set says they can.
import { describe, expect, it } from 'vitest';
import { rollupsCanCount } from '../../server/db/reads/personFilters.js';
import { listingRollup } from '../../server/db/reads/persons/listing.js';
import { personFilters } from '../../server/domain/employment.js';
import { everyFieldScope } from '../helpers/readScope.js';

const base = { ...everyFieldScope, credentialId: 'c', authorizedCompanies: ['a', 'b'], inlineCompaniesMax: 200, limit: 10, offset: 0 };

describe('search filters and the people rollups', () => {
  it('count a listing by company and creation time, and nothing that selects by name, phone or person', () => {
    // The rollups are kept per company and UTC day of person creation: those are all they count.
    expect(Object.entries(personFilters).flatMap(([name, rule]) => (rule.rollups === 'cannot' ? [] : [[name, rule.rollups]]))).toEqual([
      ['companyId', 'company'],
      ['createdFrom', 'creation day'],
      ['createdBefore', 'creation day'],
    ]);
    for (const name of ['firstName', 'lastName', 'phone', 'personId'] as const) expect(personFilters[name].rollups, name).toBe('cannot');
    expect(rollupsCanCount({ companyId: 'a', createdFrom: '2024-01-01T00:00:00Z', createdBefore: '2024-02-01T00:00:00Z' })).toBe(true);
    for (const cannot of [{ firstName: 'x' }, { lastName: 'x' }, { phone: '+14155550100' }, { personId: '00000000-0000-4000-8000-000000000001' }]) {
      expect(rollupsCanCount(cannot), JSON.stringify(cannot)).toBe(false);
      expect(listingRollup({ ...base, ...cannot }, false), JSON.stringify(cannot)).toBeUndefined();
    }
  });

  it('pick the company rollup for one company, the credential rollup for several', () => {
    expect(listingRollup({ ...base, companyId: 'a' }, false)).toEqual({ table: 'people_by_company_day', column: 'company_id', key: 'a' });
    expect(listingRollup(base, false)).toEqual({ table: 'people_by_credential_day', column: 'credential_id', key: 'c' });
    expect(listingRollup({ ...base, companyId: 'elsewhere' }, false)).toBeUndefined();
  });
});
