// Small random datasets and queries for the model comparison, drawn from the one generator
// (server/dataset/generate.ts) in a vocabulary of their own: few companies, names that
// collide on case, accents and LIKE wildcards, phones in several formats, creation times
// tied on a few instants at the edges of UTC days, people with no employment or two in one
// company, each employment under other names, unlinked records, every source-record state,
// and credentials over random subsets of companies. Only the data comes from server/: the
// model it is compared with (model.ts) shares no code with it.
import { type DatasetShape, generateEntities, type Identity, type Vocabulary } from '../../server/dataset/generate.js';
import { Random } from '../../server/dataset/random.js';
import { entityRecords } from '../../server/dataset/toRecords.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { recordReadsEverything } from '../fixtures/credentials.js';
import type { ModelQuery } from './model.js';

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

/** Names, phones and external ids drawn from the small colliding lists above; each employment under other names. */
const collidingWords: Vocabulary = {
  identity(r): Identity {
    return {
      first: r.pick(firstNames),
      last: r.pick(lastNames),
      dob: '1990-05-17',
      gender: r.pick([null, 'female', 'male', 'non-binary']),
      phone: r.pick(r.pick(phones).formats),
    };
  },
  laterJob: (r) => collidingWords.identity(r),
  externalIds: (r) => systems.filter(() => r.chance(0.5)).map((system) => [system, `${system}-${r.int(1, 999)}`]),
  address: (r) => ({ line1: '1 Main St', line2: r.pick([null, 'Apt 2']), city: 'Springfield', state: 'IL', postalCode: '62701' }),
};

export function randomDataset(seed: number): RandomDataset {
  const r = new Random(seed);
  const companies = Array.from({ length: r.int(2, 5) }, (_, i) => `s${seed}-c${i}`);
  const unlinked = r.int(1, 8);
  const shape: DatasetShape = {
    seed,
    people: r.int(3, 14),
    companies: companies.map((id) => ({ id, weight: 1 })),
    // Pending invitations still valid are after it (the rest expired on the instants below).
    now: Date.UTC(2099, 0, 1),
    jobs: { counts: [0, 1, 2, 3], weights: [1, 1, 1, 1] },
    distinctCompanies: false,
    unlinked: () => unlinked,
    vocabulary: collidingWords,
    states: 'shares',
    instants: instants.map((i) => Date.parse(i)),
  };
  const records: ImportRecord[] = companies.map((id) => ({ type: 'company', id, name: id }));
  const persons: string[] = [];
  for (const entity of generateEntities(shape, r)) {
    if (entity.kind === 'person') persons.push(entity.person.id);
    records.push(...entityRecords(entity));
  }
  const credentials = Array.from({ length: 3 }, (_, i) => ({
    token: `plk_random_${seed}_${i}_${'x'.repeat(12)}`,
    companies: new Set(companies.filter(() => r.chance(0.5))),
  }));
  // And one of every company, whose name searches read the name pieces in person order (db/reads/persons/plan.ts).
  credentials.push({ token: `plk_random_${seed}_3_${'x'.repeat(12)}`, companies: new Set(companies) });
  for (const [i, c] of credentials.entries())
    records.push({ type: 'credential', name: `random ${i}`, token: c.token, companies: [...c.companies], ...recordReadsEverything });
  return { records, companies, persons, credentials };
}

const recase = (r: Random, s: string) => r.pick([s, s.toUpperCase(), s.toLowerCase()]);
const substring = (r: Random, s: string) => {
  const chars = [...s];
  const start = r.int(0, chars.length - 1);
  return chars.slice(start, start + r.int(1, 4)).join('');
};

/** A random search: the request body to send, and the same query in model terms. */
export function randomQuery(seed: number, dataset: RandomDataset): { body: Record<string, unknown>; model: ModelQuery } {
  const r = new Random(seed);
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
