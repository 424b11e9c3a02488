// Generated entities as import records (server/importing/records.ts): every dataset is
// loaded through the service's own import.
import type { ImportRecord } from '../importing/records.js';
import type { Employment, Entity, Person } from './generate.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function personRecords(person: Person): ImportRecord[] {
  return [
    { type: 'person', id: person.id, createdAt: iso(person.createdAt), updatedAt: iso(person.updatedAt) },
    ...person.employments.flatMap(employmentRecords),
  ];
}

export function employmentRecords(e: Employment): ImportRecord[] {
  const records: ImportRecord[] = [
    {
      type: 'employee',
      id: e.id,
      companyId: e.companyId,
      personId: e.personId,
      firstName: e.firstName,
      lastName: e.lastName,
      dateOfBirth: e.dateOfBirth,
      gender: e.gender,
      email: e.email,
      phone: e.phone,
      address: { line1: e.line1, line2: e.line2, city: e.city, state: e.state, postalCode: e.postalCode },
      externalIds: e.externalIds.map(([system, system_id]) => ({ system, system_id })),
      createdAt: iso(e.createdAt),
      updatedAt: iso(e.updatedAt),
    },
  ];
  if (e.membership) records.push({ type: 'membership', employeeId: e.id, status: e.membership });
  if (e.invitation)
    records.push({
      type: 'invitation',
      employeeId: e.id,
      status: e.invitation.status,
      invitedAt: iso(e.invitation.invitedAt),
      expiresAt: iso(e.invitation.expiresAt),
    });
  if (e.linkedUser) records.push({ type: 'linkedUser', employeeId: e.id, status: e.linkedUser });
  if (e.participation)
    records.push({
      type: 'participation',
      employeeId: e.id,
      decision: e.participation.decision,
      decidedAt: e.participation.decidedAt === null ? null : iso(e.participation.decidedAt),
    });
  if (e.coverage) {
    records.push({
      type: 'coverage',
      employeeId: e.id,
      status: e.coverage.status,
      startsAt: iso(e.coverage.startsAt),
      endsAt: e.coverage.endsAt === null ? null : iso(e.coverage.endsAt),
      planTier: e.coverage.planTier,
    });
  }
  return records;
}

export function entityRecords(entity: Entity): ImportRecord[] {
  return entity.kind === 'person' ? personRecords(entity.person) : employmentRecords(entity.employment);
}
