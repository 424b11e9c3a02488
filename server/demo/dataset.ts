// The demo dataset: the one generator's (server/dataset/generate.ts) shape for a small,
// realistic, deterministic dataset. Six companies of skewed sizes, people with one to
// three employments (some in several companies), unlinked employee records (at least one
// in every company), and every membership, invitation, participation and coverage state,
// each employment taking the next combination of them. Names and places are the bench's
// (server/dataset/vocabulary.ts); phones are written as people type them, for the import
// to normalize. Same seed, same data.
import { type DatasetShape, generateEntities, type Identity, type Vocabulary } from '../dataset/generate.js';
import { buildPools } from '../dataset/pools.js';
import { Random } from '../dataset/random.js';
import { entityRecords } from '../dataset/toRecords.js';
import { realisticVocabulary } from '../dataset/vocabulary.js';
import type { ImportRecord } from '../importing/records.js';
import { demoCompanies, demoCredentials } from './credentials.js';

export interface DemoOptions {
  people?: number;
  seed?: number;
  /**
   * The instant the data is generated "as of": every invitation, decision and update lies
   * before it, and still-valid invitations expire after it. A fixed one by default, so that
   * an export is the same every time; `npm start` loads the demo as of its start (load.ts).
   */
  now?: Date;
}

export { demoCompanies, demoCredentials } from './credentials.js';

// Named people the docs and the README use: accents, and a name with `_` and `%`-free
// punctuation, so that Unicode-aware and literal matching can be tried by hand.
const named: Identity[] = [
  { first: 'Émile', last: 'Durand', dob: '1988-04-17', gender: 'male', phone: '(415) 555-0132' },
  { first: 'Ana', last: 'Durán', dob: '1995-09-30', gender: null, phone: '+1 312 555 0187' },
  { first: 'Zoë', last: "O'Brien-Ångström", dob: '1979-12-01', gender: 'female', phone: '212.555.0199' },
];

export function demoDataset(options: DemoOptions = {}): ImportRecord[] {
  const people = options.people ?? 300;
  const seed = options.seed ?? 20261120;
  const shape: DatasetShape = {
    seed,
    people,
    companies: demoCompanies,
    now: (options.now ?? new Date('2026-11-20T12:00:00Z')).getTime(),
    jobs: { counts: [1, 2, 3], weights: [65, 28, 7] },
    // Employee records whose identity is unresolved: never returned by the person operations,
    // found by Search employees. One in every company (the first an unresolved "Émile
    // Durand" at acme-corp, beside the person of that name), the rest by size.
    unlinked: () => Math.max(demoCompanies.length, Math.round(people / 20)),
    unlinkedInEveryCompany: true,
    vocabulary: typedPhones(realisticVocabulary(buildPools(seed))),
    states: 'cycle',
    fixed: { people: named, unlinked: [named[0]!] },
  };
  const records: ImportRecord[] = demoCompanies.map(({ id, name }) => ({ type: 'company', id, name }));
  for (const entity of generateEntities(shape, new Random(seed))) records.push(...entityRecords(entity));
  for (const c of demoCredentials)
    records.push({ type: 'credential', name: c.name, token: c.token, companies: c.companies, fields: [...c.fields], purpose: c.purpose });
  return records;
}

/** The vocabulary with its E.164 phones written in the formats people type. */
function typedPhones(vocabulary: Vocabulary): Vocabulary {
  const typed = (random: Random, who: Identity): Identity => {
    const [area, exchange, line] = [who.phone.slice(2, 5), who.phone.slice(5, 8), who.phone.slice(8)];
    const phone = random.pick([
      `(${area}) ${exchange}-${line}`,
      `+1 ${area} ${exchange} ${line}`,
      `${area}-${exchange}-${line}`,
      `${area}.${exchange}.${line}`,
    ]);
    return { ...who, phone };
  };
  return {
    ...vocabulary,
    identity: (random) => typed(random, vocabulary.identity(random)),
    laterJob: (random, who) => {
      const next = vocabulary.laterJob(random, who);
      return next === who ? who : typed(random, next);
    },
  };
}
