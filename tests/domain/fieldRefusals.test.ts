// A search is an oracle for the value it filters on (docs/decisions/0020-withheld-fields.md):
// a request field that reads a field group the credential lacks is refused 403 with
// details naming the field and the group, after the request's own checks (400) and before
// anything is read; a credential granted the group searches as before.
import { describe, expect, it } from 'vitest';
import type { Credential } from '../../server/domain/credentials.js';
import { employeeSearchFilter } from '../../server/domain/employees.js';
import { everyField, type FieldSet } from '../../server/domain/fieldGroups.js';
import { searchFilter } from '../../server/domain/persons.js';
import { ApiError } from '../../server/errors.js';

const credential = (fields: FieldSet): Credential => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'test',
  companySetId: '00000000-0000-4000-8000-000000000002',
  companies: new Set(['acme-corp']),
  companyList: ['acme-corp'],
  companiesOutside: 0,
  fields,
  purpose: 'tests',
  byPreviousToken: false,
});
const options = { defaultPhoneRegion: 'US', inlineCompaniesMax: 200 };
const refusal = (search: () => unknown) => {
  try {
    search();
  } catch (error) {
    return error instanceof ApiError ? { status: error.status, body: error.body } : error;
  }
  return undefined;
};

describe.each([
  ['Search persons', (request: object, fields: FieldSet) => searchFilter(request, credential(fields), options)],
  ['Search employees', (request: object, fields: FieldSet) => employeeSearchFilter(request, credential(fields), options)],
])('%s and field groups', (_, search) => {
  it('refuses each filter on a group the credential lacks, naming the field and the group', () => {
    expect(refusal(() => search({ lastName: 'dur', firstName: 'an', phone: '415 555 0132', externalIdSystems: ['payroll'] }, ['email']))).toEqual({
      status: 403,
      body: {
        error: 'forbidden',
        details: [
          { path: '/body/firstName', message: 'firstName needs the field group name, which this credential is not granted', fieldGroup: 'name' },
          { path: '/body/lastName', message: 'lastName needs the field group name, which this credential is not granted', fieldGroup: 'name' },
          { path: '/body/phone', message: 'phone needs the field group phone, which this credential is not granted', fieldGroup: 'phone' },
          {
            path: '/body/externalIdSystems',
            message: 'externalIdSystems needs the field group externalIds, which this credential is not granted',
            fieldGroup: 'externalIds',
          },
        ],
      },
    });
    // An empty selection of systems still reads which systems an employment has ids in.
    expect(refusal(() => search({ externalIdSystems: [] }, ['name']))).toMatchObject({ status: 403 });
  });

  it('answers a malformed request 400 first, whatever the groups', () => {
    expect(refusal(() => search({ phone: 'not a phone' }, []))).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('lets a credential search by what its groups hold, and by what no group holds', () => {
    expect(refusal(() => search({ lastName: 'dur', phone: '415 555 0132', externalIdSystems: ['payroll'] }, everyField))).toBeUndefined();
    expect(refusal(() => search({ lastName: 'dur' }, ['name']))).toBeUndefined();
    expect(refusal(() => search({ companyId: 'acme-corp', createdFrom: '2024-01-01T00:00:00Z', limit: 5 }, []))).toBeUndefined();
  });
});
