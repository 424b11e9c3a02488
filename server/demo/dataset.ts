// A realistic, deterministic demo dataset: several companies of skewed sizes, people with
// one to three employments (some in several companies), unlinked employee records, and
// every membership, invitation, participation and coverage state. Same seed, same data.
import { base, de, en, es, Faker, fr } from '@faker-js/faker';
import type { ImportRecord } from '../importing/records.js';
import { demoCompanies, demoCredentials } from './credentials.js';

export interface DemoOptions {
  people?: number;
  seed?: number;
  /** The instant the data is generated "as of"; invitations expire around it. */
  now?: Date;
}

export { demoCompanies, demoCredentials } from './credentials.js';

const DAY = 86_400_000;

export function demoDataset(options: DemoOptions = {}): ImportRecord[] {
  const people = options.people ?? 300;
  const now = options.now ?? new Date('2026-11-20T12:00:00Z');
  const faker = new Faker({ locale: [en, fr, es, de, base] });
  faker.seed(options.seed ?? 20261120);
  const iso = (d: Date) => d.toISOString();
  const around = (days: number) => new Date(now.getTime() + days * DAY);
  const records: ImportRecord[] = demoCompanies.map(({ id, name }) => ({ type: 'company', id, name }));
  const pickCompany = () => faker.helpers.weightedArrayElement(demoCompanies.map((c) => ({ weight: c.weight, value: c.id })));

  const addEmployee = (
    personId: string | null,
    createdAt: Date,
    companyId: string,
    who: { first: string; last: string; dob: string; gender: string | null; phone: string },
  ) => {
    const id = faker.string.uuid();
    const updatedAt = faker.date.between({ from: createdAt, to: now });
    records.push({
      type: 'employee',
      id,
      companyId,
      personId,
      firstName: who.first,
      lastName: who.last,
      dateOfBirth: who.dob,
      gender: who.gender,
      email: faker.internet.email({ firstName: who.first, lastName: who.last, provider: `${companyId.replace(/_/g, '-')}.example` }).toLowerCase(),
      phone: who.phone,
      address: {
        line1: faker.location.streetAddress(),
        line2: faker.helpers.maybe(() => faker.location.secondaryAddress(), { probability: 0.3 }) ?? null,
        city: faker.location.city(),
        state: faker.location.state({ abbreviated: true }),
        postalCode: faker.location.zipCode('#####'),
      },
      externalIds: [
        { system: 'payroll', system_id: `PR-${faker.string.numeric(6)}` },
        ...(faker.datatype.boolean() ? [{ system: 'hris', system_id: `EMP-${faker.string.numeric(5)}` }] : []),
      ],
      createdAt: iso(createdAt),
      updatedAt: iso(updatedAt),
    });
    addSourceRecords(id, createdAt);
  };

  // Cycle through every state so that even a small dataset shows each of them.
  let k = 0;
  const addSourceRecords = (employeeId: string, createdAt: Date) => {
    const n = k++;
    const membership = [null, 'active', 'revoked', null, null, 'active'][n % 6] as 'active' | 'revoked' | null;
    const invitationKind = ['none', 'pending_future', 'pending_past', 'accepted', 'revoked', 'pending_future', 'accepted'][n % 7]!;
    if (membership) records.push({ type: 'membership', employeeId, status: membership });
    if (invitationKind !== 'none') {
      const expiresAt = invitationKind === 'pending_past' ? around(-faker.number.int({ min: 1, max: 60 })) : around(faker.number.int({ min: -400, max: 30 }));
      const future = invitationKind === 'pending_future' ? around(faker.number.int({ min: 1, max: 30 })) : expiresAt;
      records.push({
        type: 'invitation',
        employeeId,
        status: invitationKind.startsWith('pending') ? 'pending' : (invitationKind as 'accepted' | 'revoked'),
        invitedAt: iso(new Date(future.getTime() - 30 * DAY)),
        expiresAt: iso(future),
      });
    }
    if (n % 5 === 3) records.push({ type: 'linkedUser', employeeId, status: n % 10 === 3 ? 'deactivated' : 'active' });
    const decision = [null, 'opt_in', 'opt_out', 'undecided'][n % 4];
    if (decision) {
      records.push({
        type: 'participation',
        employeeId,
        decision: decision === 'undecided' ? null : (decision as 'opt_in' | 'opt_out'),
        decidedAt: decision === 'undecided' ? null : iso(faker.date.between({ from: createdAt, to: now })),
      });
    }
    const coverage = [null, 'enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated'][n % 6] as any;
    if (coverage) {
      const startsAt = faker.date.between({ from: createdAt, to: around(30) });
      records.push({
        type: 'coverage',
        employeeId,
        status: coverage,
        startsAt: iso(startsAt),
        endsAt: coverage === 'terminated' ? iso(faker.date.between({ from: startsAt, to: around(60) })) : null,
        planTier: faker.helpers.arrayElement(['employee_only', 'employee_plus_spouse', 'family', null]),
      });
    }
  };

  const identity = () => {
    const sex = faker.person.sexType();
    const first = faker.person.firstName(sex);
    const last = faker.person.lastName();
    return {
      first,
      last,
      dob: faker.date.birthdate({ mode: 'age', min: 18, max: 70 }).toISOString().slice(0, 10),
      gender: faker.helpers.maybe(() => (sex === 'female' ? 'female' : 'male'), { probability: 0.8 }) ?? null,
      // Phones in the formats people type; the import normalizes them to E.164.
      phone: faker.helpers.arrayElement([
        `(${faker.string.numeric({ length: 1, allowLeadingZeros: false }).replace(/[01]/, '4')}15) 555-01${faker.string.numeric(2)}`,
        `+1 212 555 01${faker.string.numeric(2)}`,
        `312-555-01${faker.string.numeric(2)}`,
      ]),
    };
  };

  // Named people the docs and the README use: accents, and a name with `_` and `%`-free
  // punctuation, so that Unicode-aware and literal matching can be tried by hand.
  const fixed = [
    { first: 'Émile', last: 'Durand', dob: '1988-04-17', gender: 'male', phone: '(415) 555-0132' },
    { first: 'Ana', last: 'Durán', dob: '1995-09-30', gender: null, phone: '+1 312 555 0187' },
    { first: 'Zoë', last: "O'Brien-Ångström", dob: '1979-12-01', gender: 'female', phone: '212.555.0199' },
  ];

  for (let i = 0; i < people; i++) {
    const personId = faker.string.uuid();
    const createdAt = faker.date.between({ from: around(-3 * 365), to: around(-1) });
    records.push({ type: 'person', id: personId, createdAt: iso(createdAt), updatedAt: iso(faker.date.between({ from: createdAt, to: now })) });
    const who = fixed[i] ?? identity();
    const jobs =
      i < fixed.length
        ? 2
        : faker.helpers.weightedArrayElement([
            { weight: 65, value: 1 },
            { weight: 28, value: 2 },
            { weight: 7, value: 3 },
          ]);
    const companies = new Set<string>();
    while (companies.size < jobs) companies.add(pickCompany());
    let at = createdAt;
    for (const companyId of companies) {
      addEmployee(personId, at, companyId, who);
      at = new Date(Math.min(at.getTime() + faker.number.int({ min: 1, max: 300 }) * DAY, now.getTime() - DAY));
    }
  }
  // Employee records whose identity is unresolved: never returned by the person operations.
  for (let i = 0; i < Math.max(3, Math.round(people / 20)); i++) {
    addEmployee(null, faker.date.between({ from: around(-365), to: around(-1) }), pickCompany(), i === 0 ? fixed[0]! : identity());
  }
  for (const c of demoCredentials) records.push({ type: 'credential', name: c.name, token: c.token, companies: c.companies });
  return records;
}
