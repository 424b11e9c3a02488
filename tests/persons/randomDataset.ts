// Small random datasets and queries for the model comparison: few companies, names that
// collide on case, accents and LIKE wildcards, tied creation times, unlinked records,
// every source-record state, and credentials over random subsets of companies.
import type { ImportRecord } from '../../server/importing/records.js';
import type { ModelQuery } from './model.js';

/** mulberry32: a tiny seeded PRNG, so a failing seed can be replayed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  const chance = (p: number) => next() < p;
  const uuid = () => 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => int(0, 15).toString(16));
  return { next, int, pick, chance, uuid };
}

export const firstNames = [
  'Ana',
  'Émile',
  'émile',
  'EMILE',
  'Zoë',
  'Åsa',
  'Jean-Luc',
  '100%',
  'snake_case',
  'Back\\slash',
  'Chloé',
  'Ｍａｒｉａ',
  'ﬁona',
  'FIONA',
  'ΟΔΥΣΣΕΥΣ',
  'Οδυσσεύς',
];
export const lastNames = [
  'Durand',
  'Durán',
  'Dupont',
  "O'Brien",
  'Ångström',
  'du Pont',
  'Le_Gall',
  '50%Off',
  'ÇELİK'.normalize('NFD').normalize('NFC'),
  'Straße',
  'STRASSER',
  'Ｓｔｒａｓｓｅ',
];
export const phones = [
  { e164: '+14155550132', formats: ['(415) 555-0132', '415.555.0132', '+1 415 555 0132'] },
  { e164: '+13125550187', formats: ['312-555-0187', '+13125550187'] },
  { e164: '+442079460958', formats: ['+44 20 7946 0958', '+442079460958'] },
];
// Midnights, instants just after and before them, and a few days in a row: a created range
// then covers whole UTC days and partial ones, which the people rollups count differently.
export const instants = [
  '2024-01-01T00:00:00.000Z',
  '2024-01-01T00:00:00.001Z',
  '2024-01-01T23:59:59.999Z',
  '2024-01-02T00:00:00.000Z',
  '2024-01-02T13:00:00.000+02:00',
  '2024-01-03T08:00:00.000Z',
  '2024-01-04T00:00:00.000Z',
  '2024-06-15T12:30:00.000Z',
  '2025-02-28T23:59:59.999Z',
];
export const systems = ['payroll', 'hris', 'benefits'];

export interface RandomDataset {
  records: ImportRecord[];
  companies: string[];
  persons: string[];
  credentials: { token: string; companies: Set<string> }[];
}

export function randomDataset(seed: number): RandomDataset {
  const r = rng(seed);
  const seeded = r;
  const companies = Array.from({ length: r.int(2, 5) }, (_, i) => `s${seed}-c${i}`);
  const records: ImportRecord[] = companies.map((id) => ({ type: 'company', id, name: id }));
  const persons: string[] = [];
  const employee = (personId: string | null, companyId: string, r = seeded) => {
    const id = r.uuid();
    const phone = r.pick(phones);
    records.push({
      type: 'employee',
      id,
      companyId,
      personId,
      firstName: r.pick(firstNames),
      lastName: r.pick(lastNames),
      dateOfBirth: '1990-05-17',
      gender: r.pick([null, 'female', 'male', 'non-binary']),
      email: `${id.slice(0, 8)}@example.com`,
      phone: r.pick(phone.formats),
      address: { line1: '1 Main St', line2: r.pick([null, 'Apt 2']), city: 'Springfield', state: 'IL', postalCode: '62701' },
      externalIds: systems.filter(() => r.chance(0.5)).map((system) => ({ system, system_id: `${system}-${r.int(1, 999)}` })),
      createdAt: r.pick(instants),
      updatedAt: r.pick(instants),
    });
    if (r.chance(0.4)) records.push({ type: 'membership', employeeId: id, status: r.pick(['active', 'revoked'] as const) });
    if (r.chance(0.5))
      records.push({
        type: 'invitation',
        employeeId: id,
        status: r.pick(['pending', 'pending', 'accepted', 'revoked'] as const),
        invitedAt: '2024-01-01T00:00:00.000Z',
        expiresAt: r.pick(['2024-02-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z']),
      });
    if (r.chance(0.3)) records.push({ type: 'linkedUser', employeeId: id, status: r.pick(['active', 'deactivated'] as const) });
    if (r.chance(0.5)) {
      const decided = r.chance(0.7);
      records.push({
        type: 'participation',
        employeeId: id,
        decision: decided ? r.pick(['opt_in', 'opt_out'] as const) : null,
        decidedAt: decided ? r.pick(instants) : null,
      });
    }
    if (r.chance(0.5)) {
      records.push({
        type: 'coverage',
        employeeId: id,
        status: r.pick(['enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated'] as const),
        startsAt: r.pick(instants),
        endsAt: r.pick([null, '2026-01-01T00:00:00.000Z']),
        planTier: r.pick([null, 'family']),
      });
    }
  };
  for (let i = r.int(3, 14); i > 0; i--) {
    const id = r.uuid();
    persons.push(id);
    records.push({ type: 'person', id, createdAt: r.pick(instants), updatedAt: r.pick(instants) });
    for (let j = r.int(0, 3); j > 0; j--) employee(id, r.pick(companies));
  }
  for (let i = r.int(0, 3); i > 0; i--) employee(null, r.pick(companies));
  const credentials = Array.from({ length: 3 }, (_, i) => ({
    token: `plk_random_${seed}_${i}_${'x'.repeat(12)}`,
    companies: new Set(companies.filter(() => r.chance(0.5))),
  }));
  // And one of every company, whose name searches read the name pieces in person order (db/persons/persons.ts).
  credentials.push({ token: `plk_random_${seed}_3_${'x'.repeat(12)}`, companies: new Set(companies) });
  for (const [i, c] of credentials.entries()) records.push({ type: 'credential', name: `random ${i}`, token: c.token, companies: [...c.companies] });
  // More unlinked records for Search employees, drawn apart from `r` so that everything
  // above stays what each seed made before.
  const more = rng(seed + 7_000_000);
  for (let i = more.int(1, 5); i > 0; i--) employee(null, more.pick(companies), more);
  return { records, companies, persons, credentials };
}

const recase = (r: ReturnType<typeof rng>, s: string) => r.pick([s, s.toUpperCase(), s.toLowerCase()]);
const substring = (r: ReturnType<typeof rng>, s: string) => {
  const chars = [...s];
  const start = r.int(0, chars.length - 1);
  return chars.slice(start, start + r.int(1, 4)).join('');
};

/** A random search: the request body to send, and the same query in model terms. */
export function randomQuery(seed: number, dataset: RandomDataset): { body: Record<string, unknown>; model: ModelQuery } {
  const r = rng(seed);
  const body: Record<string, unknown> = {};
  const model: ModelQuery = {};
  if (r.chance(0.3)) body.companyId = model.companyId = r.chance(0.85) ? r.pick(dataset.companies) : 'elsewhere-inc';
  if (r.chance(0.35)) body.firstName = model.firstName = recase(r, substring(r, r.pick(firstNames)));
  if (r.chance(0.35)) body.lastName = model.lastName = recase(r, substring(r, r.pick(lastNames)));
  if (r.chance(0.2)) {
    const phone = r.pick(phones);
    body.phone = r.pick(phone.formats);
    model.phoneE164 = phone.e164;
  }
  if (r.chance(0.15)) body.personId = model.personId = r.chance(0.8) && dataset.persons.length ? r.pick(dataset.persons) : r.uuid();
  if (r.chance(0.25)) body.createdFrom = model.createdFrom = r.pick(instants);
  if (r.chance(0.25)) body.createdBefore = model.createdBefore = r.pick(instants);
  if (r.chance(0.3)) body.externalIdSystems = model.externalIdSystems = systems.filter(() => r.chance(0.5));
  if (r.chance(0.5)) body.limit = model.limit = r.int(1, 4);
  if (r.chance(0.4)) body.offset = model.offset = r.int(0, 5);
  return { body, model };
}

/** A random Search employees request: a search's filters but personId, which unlinked records lack. */
export function randomEmployeeQuery(seed: number, dataset: RandomDataset): { body: Record<string, unknown>; model: Omit<ModelQuery, 'personId'> } {
  const { body, model } = randomQuery(seed, dataset);
  delete body.personId;
  delete model.personId;
  return { body, model };
}
