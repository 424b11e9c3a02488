// The benchmark dataset, generated deterministically from (people, companies, seed):
// companies of Zipf-skewed sizes (a few very large, a long tail), people with one to
// three employments, some unlinked employee records, and every membership, invitation,
// linked-user, participation and coverage state. Both loaders (COPY into PostgreSQL,
// importRecords into PGlite) consume this one stream, so both engines hold the same data.
import { buildPools, type Pools } from './pools.js';
import { Random, WeightedSampler, zipfWeights } from './random.js';

/** Bump when the generated data or how it is loaded changes, so stored datasets get rebuilt (2: loaded by the import). */
export const GENERATOR_VERSION = 2;

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

/** The instant the data is generated "as of" (fixed, so the data never depends on the clock). */
export const DATASET_NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 86_400_000;

export interface Company {
  id: string;
  name: string;
  /** 1 = largest. */
  rank: number;
}

export type CredentialKey = 'oneLarge' | 'hundred' | 'every';

export interface BenchCredential {
  key: CredentialKey;
  name: string;
  /** Fixed plaintext: only its SHA-256 is stored, as for any credential. */
  token: string;
  companies: string[];
}

export interface Employment {
  id: string;
  companyId: string;
  personId: string | null;
  personCreatedAt: number | null;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  gender: string | null;
  email: string;
  /** E.164. */
  phone: string;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postalCode: string;
  createdAt: number;
  updatedAt: number;
  externalIds: [system: string, systemId: string][];
  membership: 'active' | 'revoked' | null;
  invitation: { status: 'pending' | 'accepted' | 'revoked'; invitedAt: number; expiresAt: number } | null;
  linkedUser: 'active' | 'deactivated' | null;
  participation: { decision: 'opt_in' | 'opt_out' | null; decidedAt: number | null } | null;
  coverage: { status: CoverageStatus; startsAt: number; endsAt: number | null; planTier: string | null } | null;
}

type CoverageStatus = 'enrolled' | 'enrolled_not_paying' | 'awaiting_coverage' | 'waived' | 'terminated';

export interface Person {
  id: string;
  createdAt: number;
  updatedAt: number;
  employments: Employment[];
}

export type Entity = { kind: 'person'; person: Person } | { kind: 'unlinked'; employment: Employment };

export interface Dataset {
  scale: Scale;
  companies: Company[];
  credentials: BenchCredential[];
  /** Every person (with employments), then the unlinked employee records. One pass only. */
  entities(): Generator<Entity>;
}

/** Unlinked employee records, as a share of linked employments. */
const UNLINKED_SHARE = 0.02;

export function benchCredentials(companies: Company[]): BenchCredential[] {
  const ids = companies.map((c) => c.id);
  // A hundred companies spread over the ranks (2nd largest down to the tail): a realistic
  // mix of large and small, and disjoint from the single large company's credential.
  const n = Math.min(100, ids.length - 1);
  const hundred = Array.from({ length: n }, (_, i) => ids[1 + Math.floor((i * (ids.length - 1)) / n)]!);
  return [
    { key: 'oneLarge', name: 'bench: one large company', token: 'plk_bench_one_large_company', companies: [ids[0]!] },
    { key: 'hundred', name: `bench: ${n} companies`, token: 'plk_bench_hundred_companies', companies: hundred },
    { key: 'every', name: 'bench: every company', token: 'plk_bench_every_company', companies: ids },
  ];
}

export function createDataset(scale: Scale): Dataset {
  const pools = buildPools(scale.seed);
  const companies: Company[] = pools.companyNames(scale.companies).map((name, i) => ({ id: `co-${String(i + 1).padStart(4, '0')}`, name, rank: i + 1 }));
  return {
    scale,
    companies,
    credentials: benchCredentials(companies),
    entities: () => entities(scale, pools, companies),
  };
}

function* entities(scale: Scale, pools: Pools, companies: Company[]): Generator<Entity> {
  const random = new Random(scale.seed);
  // Company sizes: Zipf s=1 over rank. At 2,000 companies the largest holds ~12% of all
  // employments, the 100th ~0.1%, the last a few dozen people.
  const companySampler = new WeightedSampler(
    companies.map((c) => c.id),
    zipfWeights(companies.length, 1),
  );
  const jobsSampler = new WeightedSampler([1, 2, 3], [62, 28, 10]);
  const recentPhones: string[] = [];

  const identity = () => {
    const origin = pools.origins.draw(random);
    const sex = random.chance(0.5) ? 'female' : 'male';
    // Some people carry a name from another origin (families mix), a few a double name.
    const lastOrigin = random.chance(0.15) ? pools.origins.draw(random) : origin;
    let last = lastOrigin.lastNames[sex].draw(random);
    if (random.chance(0.03)) last = `${last}-${pools.origins.draw(random).lastNames[sex].draw(random)}`;
    const first = origin.firstNames[sex].draw(random);
    let phone: string;
    if (recentPhones.length > 100 && random.chance(0.02))
      phone = random.pick(recentPhones); // a shared household line
    else {
      phone = usPhone(random);
      if (recentPhones.length < 1_000) recentPhones.push(phone);
      else recentPhones[random.int(0, 999)] = phone;
    }
    const gender = random.chance(0.88) ? sex : random.chance(0.8) ? null : 'nonbinary';
    return { first, last, phone, gender, dob: dateOnly(Date.UTC(1956, 0, 1) + random.int(0, 52 * 365) * DAY) };
  };

  const employment = (
    personId: string | null,
    personCreatedAt: number | null,
    companyId: string,
    createdAt: number,
    who: ReturnType<typeof identity>,
  ): Employment => {
    const id = random.uuid();
    const externalIds: [string, string][] = [['payroll', `PR-${random.digits(7)}`]];
    if (random.chance(0.5)) externalIds.push(['hris', `EMP-${random.digits(6)}`]);
    if (random.chance(0.15)) externalIds.push(['benefits', `BEN-${random.digits(8)}`]);
    return {
      id,
      companyId,
      personId,
      personCreatedAt,
      firstName: who.first,
      lastName: who.last,
      dateOfBirth: who.dob,
      gender: who.gender,
      email: `${ascii(who.first)}.${ascii(who.last)}${random.int(1, 999)}@${companyId}.example`,
      phone: who.phone,
      line1: `${random.int(1, 9999)} ${random.pick(pools.streets)}`,
      line2: random.chance(0.3) ? random.pick(pools.streetSuffixes) : null,
      city: random.pick(pools.cities),
      state: random.pick(pools.states),
      postalCode: random.digits(5),
      createdAt,
      updatedAt: between(random, createdAt, DATASET_NOW),
      externalIds,
      ...sourceRecords(random, createdAt),
    };
  };

  let linked = 0;
  for (let i = 0; i < scale.people; i++) {
    const id = random.uuid();
    const createdAt = DATASET_NOW - 3 * 365 * DAY + random.int(0, 3 * 365 * DAY - DAY);
    const who = identity();
    const jobs = Math.min(jobsSampler.draw(random), companies.length);
    const chosen = new Set<string>();
    for (let tries = 0; chosen.size < jobs && tries < 20; tries++) chosen.add(companySampler.draw(random));
    const employments: Employment[] = [];
    let at = createdAt;
    for (const companyId of chosen) {
      // A later job sometimes comes with a new phone number or a new last name.
      const whoHere = employments.length && random.chance(0.1) ? { ...who, phone: usPhone(random) } : who;
      employments.push(employment(id, createdAt, companyId, at, whoHere));
      at = Math.min(at + random.int(1, 300) * DAY, DATASET_NOW - DAY);
    }
    linked += employments.length;
    yield { kind: 'person', person: { id, createdAt, updatedAt: between(random, createdAt, DATASET_NOW), employments } };
  }
  const unlinked = Math.max(3, Math.round(linked * UNLINKED_SHARE));
  for (let i = 0; i < unlinked; i++) {
    const createdAt = DATASET_NOW - random.int(1, 365) * DAY;
    yield { kind: 'unlinked', employment: employment(null, null, companySampler.draw(random), createdAt, identity()) };
  }
}

/** Membership, invitation, linked user, participation and coverage: every state, in realistic shares. */
function sourceRecords(random: Random, createdAt: number): Pick<Employment, 'membership' | 'invitation' | 'linkedUser' | 'participation' | 'coverage'> {
  const m = random.next();
  const membership = m < 0.45 ? 'active' : m < 0.53 ? 'revoked' : null;

  const k = random.next();
  let invitation: Employment['invitation'] = null;
  if (k >= 0.25) {
    // pending and still valid, pending and expired, accepted, revoked
    const status = k < 0.35 ? 'pending' : k < 0.45 ? 'pending' : k < 0.9 ? 'accepted' : 'revoked';
    const expiresAt = k < 0.35 ? DATASET_NOW + random.int(30, 400) * DAY : between(random, createdAt + 14 * DAY, DATASET_NOW - DAY);
    invitation = { status, invitedAt: expiresAt - 30 * DAY, expiresAt };
  }

  const u = random.next();
  const linkedUser = u < 0.2 ? 'active' : u < 0.25 ? 'deactivated' : null;

  const p = random.next();
  const participation: Employment['participation'] =
    p < 0.25
      ? null
      : p < 0.35
        ? { decision: null, decidedAt: null }
        : { decision: p < 0.75 ? 'opt_in' : 'opt_out', decidedAt: between(random, createdAt, DATASET_NOW) };

  const c = random.next();
  let coverage: Employment['coverage'] = null;
  if (c >= 0.15) {
    const status: CoverageStatus = c < 0.6 ? 'enrolled' : c < 0.65 ? 'enrolled_not_paying' : c < 0.75 ? 'awaiting_coverage' : c < 0.9 ? 'waived' : 'terminated';
    const startsAt = between(random, createdAt, DATASET_NOW + 30 * DAY);
    coverage = {
      status,
      startsAt,
      endsAt: status === 'terminated' ? between(random, startsAt, DATASET_NOW + 60 * DAY) : null,
      planTier: random.pick(['employee_only', 'employee_plus_spouse', 'employee_plus_children', 'family', null]),
    };
  }
  return { membership, invitation, linkedUser, participation, coverage };
}

/** A North American number in E.164: area code and exchange never start with 0/1 nor end in 11. */
function usPhone(random: Random): string {
  return `+1${phonePart(random)}${phonePart(random)}${random.digits(4)}`;
}

function phonePart(random: Random): number {
  let p: number;
  do p = random.int(200, 999);
  while (p % 100 === 11);
  return p;
}

const between = (random: Random, from: number, to: number) => (to <= from ? from : from + Math.floor(random.next() * (to - from)));
const dateOnly = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** "Nguyễn" → "nguyen", "O'Brien" → "obrien": the local part of an address (cached: few distinct names). */
const asciiCache = new Map<string, string>();
function ascii(name: string): string {
  let out = asciiCache.get(name);
  if (out === undefined) {
    out =
      name
        .normalize('NFD')
        .replace(/[^A-Za-z0-9]/g, '')
        .toLowerCase() || 'x';
    if (asciiCache.size < 100_000) asciiCache.set(name, out);
  }
  return out;
}
