// What the person operations mean: turning a search request into a filter over the
// credential's companies, and the rows read back into Person objects.
import type { components } from '../../generated/types.full.js';
import type { Credential } from '../db/credentials.js';
import type { EmploymentRow, PersonFilter } from '../db/persons.js';
import { ApiError } from '../errors.js';
import { deriveMembershipStatus } from './membershipStatus.js';
import { foldName } from './names.js';
import { toE164 } from './phone.js';

type Schemas = components['schemas'];
export type SearchRequest = Schemas['SearchPersonsRequest'];
export type Person = Schemas['Person'];
export type Employee = Schemas['Employee'];

export const DEFAULT_LIMIT = 50;

export interface PersonQueryOptions {
  defaultPhoneRegion: string;
  inlineCompaniesMax: number;
}

/** The filter a search request stands for, for this credential. */
export function searchFilter(request: SearchRequest, credential: Credential, { defaultPhoneRegion, inlineCompaniesMax }: PersonQueryOptions): PersonFilter {
  let phone: string | undefined;
  if (request.phone !== undefined) {
    phone = toE164(request.phone, defaultPhoneRegion);
    if (!phone) throw new ApiError('invalid_request', [{ path: '/body/phone', message: 'is not a phone number' }]);
  }
  return {
    credentialId: credential.companySetId,
    authorizedCompanies: credential.companyList,
    inlineCompaniesMax,
    companyId: request.companyId,
    firstName: request.firstName === undefined ? undefined : foldName(request.firstName),
    lastName: request.lastName === undefined ? undefined : foldName(request.lastName),
    phone,
    personId: request.personId,
    createdFrom: request.createdFrom,
    createdBefore: request.createdBefore,
    limit: request.limit ?? DEFAULT_LIMIT,
    offset: request.offset ?? 0,
    externalIdSystems: request.externalIdSystems,
  };
}

export interface PersonPage {
  asOf: Date;
  total: number;
  persons: Person[];
}

/** Groups rows (already in response order) into people with their employments. */
export function toPersonPage(rows: EmploymentRow[]): PersonPage {
  const first = rows[0];
  if (!first) throw new Error('the person query always returns at least one row');
  const asOf = new Date(first.as_of);
  const persons: Person[] = [];
  for (const row of rows) {
    if (row.person_id === null) continue; // the lone row of an empty page
    let person = persons.at(-1);
    if (person?.id !== row.person_id) {
      person = { id: row.person_id, employments: [], createdAt: row.person_created_at, updatedAt: row.person_updated_at };
      persons.push(person);
    }
    person.employments.push(toEmployee(row, person.id, asOf));
  }
  return { asOf, total: Number(first.total), persons };
}

function toEmployee(row: EmploymentRow, personId: string, asOf: Date): Employee {
  const invitation = row.invitation_status
    ? { status: row.invitation_status, invitedAt: row.invitation_invited_at!, expiresAt: row.invitation_expires_at! }
    : null;
  return {
    id: row.id,
    companyId: row.company_id,
    personId,
    externalIds: row.external_ids,
    demographics: { firstName: row.first_name, lastName: row.last_name, dateOfBirth: row.date_of_birth, gender: row.gender },
    contact: {
      email: row.email,
      phone: row.phone,
      address: { line1: row.address_line1, line2: row.address_line2, city: row.city, state: row.state, postalCode: row.postal_code },
    },
    membership: {
      status: deriveMembershipStatus(
        {
          membership: row.membership_status,
          invitation: row.invitation_status ? { status: row.invitation_status, expiresAt: new Date(row.invitation_expires_at!) } : null,
          linkedUser: row.linked_user_status,
        },
        asOf,
      ),
      invitation,
    },
    participation: row.has_participation ? { decision: row.participation_decision, decidedAt: row.participation_decided_at } : null,
    coverage: row.coverage_status
      ? {
          status: row.coverage_status as Schemas['Coverage']['status'],
          startsAt: row.coverage_starts_at!,
          endsAt: row.coverage_ends_at,
          planTier: row.coverage_plan_tier,
        }
      : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

