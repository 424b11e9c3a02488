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

/** Who an employee record describes: the same person carries it into each company. */
interface Identity {
  first: string;
  last: string;
  dob: string;
  gender: string | null;
  phone: string;
}

// Named people the docs and the README use: accents, and a name with `_` and `%`-free
// punctuation, so that Unicode-aware and literal matching can be tried by hand.
const fixed: Identity[] = [
  { first: 'Émile', last: 'Durand', dob: '1988-04-17', gender: 'male', phone: '(415) 555-0132' },
  { first: 'Ana', last: 'Durán', dob: '1995-09-30', gender: null, phone: '+1 312 555 0187' },
  { first: 'Zoë', last: "O'Brien-Ångström", dob: '1979-12-01', gender: 'female', phone: '212.555.0199' },
];

export function demoDataset(options: DemoOptions = {}): ImportRecord[] {
  const people = options.people ?? 300;
  const faker = new Faker({ locale: [en, fr, es, de, base] });
  faker.seed(options.seed ?? 20261120);
  const demo = new DemoBuilder(faker, options.now ?? new Date('2026-11-20T12:00:00Z'));
  for (let i = 0; i < people; i++) demo.addPerson(fixed[i]);
  // Employee records whose identity is unresolved: never returned by the person operations,
  // found by Search employees. At least one in every company (the first an unresolved
  // "Émile Durand" at acme-corp, beside the person of that name), the rest by size.
  for (let i = 0; i < Math.max(demoCompanies.length, Math.round(people / 20)); i++) {
    const companyId = i < demoCompanies.length ? demoCompanies[i]!.id : demo.pickCompany();
    demo.addEmployee(null, faker.date.between({ from: demo.around(-365), to: demo.around(-1) }), companyId, i === 0 ? fixed[0]! : demo.identity());
  }
  for (const c of demoCredentials) demo.records.push({ type: 'credential', name: c.name, token: c.token, companies: c.companies });
  return demo.records;
}

/** The records so far, and each kind of record drawn from one seeded faker (the order of draws is the data). */
class DemoBuilder {
  readonly records: ImportRecord[] = demoCompanies.map(({ id, name }) => ({ type: 'company', id, name }));
  /** Employee records so far: each next one gets the next combination of states. */
  private employees = 0;

  constructor(
    private readonly faker: Faker,
    private readonly now: Date,
  ) {}

  around(days: number): Date {
    return new Date(this.now.getTime() + days * DAY);
  }

  pickCompany(): string {
    return this.faker.helpers.weightedArrayElement(demoCompanies.map((c) => ({ weight: c.weight, value: c.id })));
  }

  /** A person with one to three employments (a named one with two). */
  addPerson(named: Identity | undefined): void {
    const { faker, now } = this;
    const personId = faker.string.uuid();
    const createdAt = faker.date.between({ from: this.around(-3 * 365), to: this.around(-1) });
    this.records.push({ type: 'person', id: personId, createdAt: iso(createdAt), updatedAt: iso(faker.date.between({ from: createdAt, to: now })) });
    const who = named ?? this.identity();
    const jobs = named
      ? 2
      : faker.helpers.weightedArrayElement([
          { weight: 65, value: 1 },
          { weight: 28, value: 2 },
          { weight: 7, value: 3 },
        ]);
    const companies = new Set<string>();
    while (companies.size < jobs) companies.add(this.pickCompany());
    let at = createdAt;
    for (const companyId of companies) {
      this.addEmployee(personId, at, companyId, who);
      at = new Date(Math.min(at.getTime() + faker.number.int({ min: 1, max: 300 }) * DAY, now.getTime() - DAY));
    }
  }

  addEmployee(personId: string | null, createdAt: Date, companyId: string, who: Identity): void {
    const { faker, now } = this;
    const id = faker.string.uuid();
    const updatedAt = faker.date.between({ from: createdAt, to: now });
    this.records.push({
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
    this.addSourceRecords(id, createdAt);
  }

  /** Cycles through every state so that even a small dataset shows each of them. */
  private addSourceRecords(employeeId: string, createdAt: Date): void {
    const { faker, now } = this;
    const n = this.employees++;
    const membership = [null, 'active', 'revoked', null, null, 'active'][n % 6] as 'active' | 'revoked' | null;
    if (membership) this.records.push({ type: 'membership', employeeId, status: membership });
    this.addInvitation(employeeId, ['none', 'pending_future', 'pending_past', 'accepted', 'revoked', 'pending_future', 'accepted'][n % 7]!);
    if (n % 5 === 3) this.records.push({ type: 'linkedUser', employeeId, status: n % 10 === 3 ? 'deactivated' : 'active' });
    const decision = [null, 'opt_in', 'opt_out', 'undecided'][n % 4];
    if (decision) {
      this.records.push({
        type: 'participation',
        employeeId,
        decision: decision === 'undecided' ? null : (decision as 'opt_in' | 'opt_out'),
        decidedAt: decision === 'undecided' ? null : iso(faker.date.between({ from: createdAt, to: now })),
      });
    }
    const coverage = [null, 'enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated'][n % 6] as any;
    if (coverage) {
      const startsAt = faker.date.between({ from: createdAt, to: this.around(30) });
      this.records.push({
        type: 'coverage',
        employeeId,
        status: coverage,
        startsAt: iso(startsAt),
        endsAt: coverage === 'terminated' ? iso(faker.date.between({ from: startsAt, to: this.around(60) })) : null,
        planTier: faker.helpers.arrayElement(['employee_only', 'employee_plus_spouse', 'family', null]),
      });
    }
  }

  private addInvitation(employeeId: string, kind: string): void {
    if (kind === 'none') return;
    const { faker } = this;
    const expiresAt = kind === 'pending_past' ? this.around(-faker.number.int({ min: 1, max: 60 })) : this.around(faker.number.int({ min: -400, max: 30 }));
    const future = kind === 'pending_future' ? this.around(faker.number.int({ min: 1, max: 30 })) : expiresAt;
    this.records.push({
      type: 'invitation',
      employeeId,
      status: kind.startsWith('pending') ? 'pending' : (kind as 'accepted' | 'revoked'),
      invitedAt: iso(new Date(future.getTime() - 30 * DAY)),
      expiresAt: iso(future),
    });
  }

  identity(): Identity {
    const { faker } = this;
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
  }
}

const iso = (d: Date) => d.toISOString();
