// The vocabularies the dataset draws from, taken from faker's locale data with a fixed
// seed: names by origin (a US-like workforce: mostly English, then Spanish, German,
// Italian, French, Polish, Vietnamese, ... with their accents), each ranked and weighted
// Zipf-like so that a few last names are very common and most are rare, as in a real
// population; streets, cities and company names for the rest.
import { allLocales, base, en, Faker } from '@faker-js/faker';
import { fakerRandomizer, Random, WeightedSampler, zipfWeights } from './random.js';

type Sex = 'female' | 'male';

/** Where a person's names come from, and how much of the workforce that is. */
const origins: { locales: (keyof typeof allLocales)[]; share: number }[] = [
  { locales: ['en'], share: 0.5 },
  { locales: ['es', 'es_MX'], share: 0.17 },
  { locales: ['de'], share: 0.05 },
  { locales: ['it'], share: 0.04 },
  { locales: ['fr', 'fr_BE'], share: 0.04 },
  { locales: ['pl'], share: 0.03 },
  { locales: ['vi'], share: 0.03 },
  { locales: ['pt_BR', 'pt_PT'], share: 0.03 },
  { locales: ['nl'], share: 0.02 },
  { locales: ['cs_CZ'], share: 0.02 },
  { locales: ['sv'], share: 0.02 },
  { locales: ['hu'], share: 0.015 },
  { locales: ['tr'], share: 0.015 },
  { locales: ['ro'], share: 0.02 },
];

export interface Origin {
  lastNames: Record<Sex, WeightedSampler<string>>;
  firstNames: Record<Sex, WeightedSampler<string>>;
}

export interface Pools {
  origins: WeightedSampler<Origin>;
  streets: string[];
  streetSuffixes: string[];
  cities: string[];
  states: string[];
  companyNames(count: number): string[];
}

const list = (value: unknown, key: string): string[] => {
  if (!value) return [];
  if (Array.isArray(value)) return key === 'generic' ? (value as string[]) : [];
  const v = (value as Record<string, unknown>)[key];
  return Array.isArray(v) ? (v as string[]) : [];
};

/**
 * Names of one kind from several locales, deduplicated, in a seeded pseudo-random rank
 * order that depends on the name only (so a name shared by the female and male lists has
 * the same rank in both), Zipf–Mandelbrot-weighted.
 */
function ranked(names: string[], seed: number, s: number, q: number): WeightedSampler<string> {
  const unique = [...new Set(names.map((n) => n.trim()).filter((n) => n && /^\p{Script=Latin}/u.test(n)))];
  const rank = new Map(unique.map((n) => [n, hash(n, seed)]));
  unique.sort((a, b) => rank.get(a)! - rank.get(b)! || (a < b ? -1 : 1));
  return new WeightedSampler(unique, zipfWeights(unique.length, s, q));
}

/** FNV-1a of the name, mixed with the seed. */
function hash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function buildPools(seed: number): Pools {
  const built = origins.map(({ locales }) => {
    const person = (kind: 'first_name' | 'last_name', sex: Sex) =>
      locales.flatMap((l) => {
        const p = (allLocales[l] as any).person ?? {};
        return [...list(p[kind], 'generic'), ...list(p[kind], sex)];
      });
    // Last names shaped like a census: the most common about 0.5% of everyone (Smith is
    // 0.8% in the US), the top ten a few % together, then a long tail of rare ones.
    // First names are more concentrated, as they are.
    return {
      lastNames: { female: ranked(person('last_name', 'female'), seed, 1.1, 40), male: ranked(person('last_name', 'male'), seed, 1.1, 40) },
      firstNames: { female: ranked(person('first_name', 'female'), seed ^ 1, 1, 8), male: ranked(person('first_name', 'male'), seed ^ 1, 1, 8) },
    };
  });

  // Faker picks the words from the one PRNG too, on a stream of its own.
  const faker = new Faker({ locale: [en, base], randomizer: fakerRandomizer(new Random(seed)) });
  const many = (n: number, make: () => string) => [...new Set(Array.from({ length: n }, make))];
  const streets = many(3_000, () => faker.location.street());
  const cities = many(1_500, () => faker.location.city());
  const states = [...((en.location as any).state_abbr as string[])];

  return {
    origins: new WeightedSampler(
      built,
      origins.map((o) => o.share),
    ),
    streets,
    streetSuffixes: ['Apt. 1', 'Apt. 2B', 'Suite 100', 'Unit 7', 'Apt. 12', 'Floor 3'],
    cities,
    states,
    companyNames(count) {
      const names = new Set<string>();
      for (let i = 0; names.size < count; i++) {
        const name = faker.company.name();
        names.add(names.has(name) ? `${name} ${i}` : name);
      }
      return [...names];
    },
  };
}
