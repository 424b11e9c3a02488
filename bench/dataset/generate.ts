// The benchmark dataset, deterministic for (people, companies, seed): the one generator
// (server/dataset/generate.ts) in its realistic vocabulary, companies of Zipf-skewed sizes.
// Both engines load this one stream through the import, so both hold the same data.
import { type DatasetShape, type Entity, generateEntities } from '../../server/dataset/generate.js';
import { buildPools } from '../../server/dataset/pools.js';
import { Random, zipfWeights } from '../../server/dataset/random.js';
import { realisticVocabulary } from '../../server/dataset/vocabulary.js';
import type { FieldGroup } from '../../server/domain/fieldGroups.js';

/** Bump when the generated data or how it is loaded changes, so that stored datasets get rebuilt. */
export const GENERATOR_VERSION = 5;

export interface Scale {
  people: number;
  companies: number;
  seed: number;
}

export const DEFAULT_SEED = 20261122;

/** 2,000 companies at a million people, proportionally fewer (at least 10) below. */
export function scaleFor(people: number, options: { companies?: number; seed?: number } = {}): Scale {
  if (!Number.isInteger(people) || people < 1) throw new Error(`people must be a positive integer; got ${people}`);
  const companies = options.companies ?? Math.min(2_000, Math.max(10, Math.round(people / 500)));
  return { people, companies, seed: options.seed ?? DEFAULT_SEED };
}

/** The instant the data is generated "as of": fixed, so that the data never depends on the clock. */
const DATASET_NOW = Date.UTC(2026, 10, 20, 12);

export type CredentialKey = 'oneLarge' | 'hundred' | 'every' | 'nameEmail';

export interface BenchCredential {
  key: CredentialKey;
  name: string;
  /** Fixed plaintext: only its SHA-256 is stored, as for any credential. */
  token: string;
  companies: string[];
  /** The field groups it reads (the import's `fields`). */
  fields: (FieldGroup | 'all')[];
}

export interface Dataset {
  scale: Scale;
  /** Largest first. */
  companies: { id: string; name: string }[];
  credentials: BenchCredential[];
  /** Every person (with employments), then the unlinked employee records. One pass only. */
  entities(): Generator<Entity>;
}

/** Unlinked employee records, as a share of linked employments. */
const UNLINKED_SHARE = 0.02;

function benchCredentials(companies: Dataset['companies']): BenchCredential[] {
  const ids = companies.map((c) => c.id);
  // A hundred companies spread over the ranks (2nd largest down to the tail): a realistic
  // mix of large and small, and disjoint from the single large company's credential.
  const n = Math.min(100, ids.length - 1);
  const hundred = Array.from({ length: n }, (_, i) => ids[1 + Math.floor((i * (ids.length - 1)) / n)]!);
  return [
    { key: 'oneLarge', name: 'bench: one large company', token: 'plk_bench_one_large_company', companies: [ids[0]!], fields: ['all'] },
    { key: 'hundred', name: `bench: ${n} companies`, token: 'plk_bench_hundred_companies', companies: hundred, fields: ['all'] },
    { key: 'every', name: 'bench: every company', token: 'plk_bench_every_company', companies: ids, fields: ['all'] },
    // The one large company again, reading names and emails only (a scheduling tool): set
    // beside the first, it shows what a narrow credential costs (issue 57).
    {
      key: 'nameEmail',
      name: 'bench: one large company, name and email',
      token: 'plk_bench_one_large_name_email',
      companies: [ids[0]!],
      fields: ['name', 'email'],
    },
  ];
}

export function createDataset(scale: Scale): Dataset {
  const pools = buildPools(scale.seed);
  const companies = pools.companyNames(scale.companies).map((name, i) => ({ id: `co-${String(i + 1).padStart(4, '0')}`, name }));
  const shape: Omit<DatasetShape, 'vocabulary'> = {
    seed: scale.seed,
    people: scale.people,
    // Company sizes: Zipf s=1 over rank. At 2,000 companies the largest holds ~12% of all
    // employments, the 100th ~0.1%, the last a few dozen people.
    companies: zipfWeights(companies.length, 1).map((weight, i) => ({ id: companies[i]!.id, weight })),
    now: DATASET_NOW,
    jobs: { counts: [1, 2, 3], weights: [62, 28, 10] },
    unlinked: (linked) => Math.max(3, Math.round(linked * UNLINKED_SHARE)),
    states: 'shares',
  };
  return {
    scale,
    companies,
    credentials: benchCredentials(companies),
    // A fresh vocabulary per pass: its households' shared phones are drawn along the stream.
    entities: () => generateEntities({ ...shape, vocabulary: realisticVocabulary(pools) }, new Random(scale.seed)),
  };
}
