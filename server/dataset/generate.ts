// The one generator of employment data, drawn from by the demo (server/demo/dataset.ts), the
// bench (bench/dataset/generate.ts, up to a million people) and the randomized model tests
// (tests/persons/randomDataset.ts), each at its own size and in its own words: people
// with employments in companies of weighted sizes, unlinked employee records, and every
// membership, invitation, linked-user, participation and coverage state. A shape says how
// many of each and which vocabulary (vocabulary.ts) names them; one seeded stream
// (random.ts) draws the rest, so the same shape gives the same data. It streams: a person
// at a time, never the whole dataset in memory.
//
// It lives in server/ because the demo does (the server may not import tests/ or bench/),
// beside the demo as one of the server's public modules (.dependency-cruiser.cjs), and
// imports only the import's record types.
import { type Random, WeightedSampler } from './random.js';
import { type SourceRecords, stateCycle, stateShares } from './states.js';

/** Who an employee record describes: what a person carries into each company. */
export interface Identity {
  first: string;
  last: string;
  dob: string;
  gender: string | null;
  /** As the source system holds it: E.164, or as people type it. */
  phone: string;
}

export interface Address {
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postalCode: string;
}

/** The words a dataset is written in: names, phones, addresses, external ids. */
export interface Vocabulary {
  identity(random: Random): Identity;
  /** What a person's second or later employment says about them (a new phone, a new name). */
  laterJob(random: Random, who: Identity): Identity;
  externalIds(random: Random): [system: string, systemId: string][];
  address(random: Random): Address;
}

export interface DatasetShape {
  seed: number;
  people: number;
  /** Companies and their relative sizes (each employment's company is drawn by weight). */
  companies: readonly { id: string; weight: number }[];
  /** The instant the data is "as of": created before it, pending invitations valid after it. */
  now: number;
  /** How many employments a person has, and how often. */
  jobs: { counts: readonly number[]; weights: readonly number[] };
  /** A person's employments are in distinct companies (default); false allows a rehire in the same one. */
  distinctCompanies?: boolean;
  /** How many unlinked employee records follow the people, given how many employments they hold. */
  unlinked(linkedEmployments: number): number;
  /** The first unlinked records go one to each company, in order, before the rest by weight. */
  unlinkedInEveryCompany?: boolean;
  vocabulary: Vocabulary;
  /** Source-record states in realistic shares, or each employment the next combination of them (every state even in a small dataset). */
  states: 'shares' | 'cycle';
  /** Every created, updated, decided and start time drawn from these few (ties, day edges) within its range, instead of from the whole range. */
  instants?: readonly number[];
  /** People, then unlinked records, who carry these identities first (names the docs use). */
  fixed?: { people?: readonly Identity[]; unlinked?: readonly Identity[] };
}

export interface Employment extends SourceRecords {
  id: string;
  companyId: string;
  personId: string | null;
  personCreatedAt: number | null;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  gender: string | null;
  email: string;
  phone: string;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postalCode: string;
  createdAt: number;
  updatedAt: number;
  externalIds: [system: string, systemId: string][];
}

export interface Person {
  id: string;
  createdAt: number;
  updatedAt: number;
  employments: Employment[];
}

export type Entity = { kind: 'person'; person: Person } | { kind: 'unlinked'; employment: Employment };

export const DAY = 86_400_000;

/** Every person (with their employments), then the unlinked employee records, drawn from `random` in that order. */
export function* generateEntities(shape: DatasetShape, random: Random): Generator<Entity> {
  const draw = new Draws(shape, random);
  let linked = 0;
  for (let i = 0; i < shape.people; i++) {
    const person = draw.person(shape.fixed?.people?.[i]);
    linked += person.employments.length;
    yield { kind: 'person', person };
  }
  const unlinked = shape.unlinked(linked);
  const every = shape.unlinkedInEveryCompany ? shape.companies.length : 0;
  for (let i = 0; i < unlinked; i++) {
    const createdAt = shape.instants ? random.pick(shape.instants) : shape.now - random.int(1, 365) * DAY;
    const companyId = i < every ? shape.companies[i]!.id : draw.company();
    const who = shape.fixed?.unlinked?.[i] ?? shape.vocabulary.identity(random);
    yield { kind: 'unlinked', employment: draw.employment(null, null, companyId, createdAt, who) };
  }
}

/** Each kind of thing the dataset holds, drawn from the one stream (the order of draws is the data). */
class Draws {
  private readonly companies: WeightedSampler<string>;
  private readonly jobs: WeightedSampler<number>;
  private readonly states: (createdAt: number) => SourceRecords;

  constructor(
    private readonly shape: DatasetShape,
    private readonly random: Random,
  ) {
    this.companies = new WeightedSampler(
      shape.companies.map((c) => c.id),
      shape.companies.map((c) => c.weight),
    );
    this.jobs = new WeightedSampler(shape.jobs.counts, shape.jobs.weights);
    const within = (from: number, to: number) => this.within(from, to);
    this.states = shape.states === 'cycle' ? stateCycle(random, shape.now, within) : (createdAt) => stateShares(random, shape.now, within, createdAt);
  }

  company(): string {
    return this.companies.draw(this.random);
  }

  /**
   * An instant in [from, to) (`from` where that is empty), or one of the shape's few
   * instants in it (`from` where none is): a time drawn after another stays after it.
   */
  within(from: number, to: number): number {
    const { random, shape } = this;
    if (shape.instants) {
      const inRange = shape.instants.filter((instant) => instant >= from && instant < to);
      return inRange.length ? random.pick(inRange) : from;
    }
    return to <= from ? from : from + Math.floor(random.next() * (to - from));
  }

  person(fixed: Identity | undefined): Person {
    const { random, shape } = this;
    const id = random.uuid();
    const createdAt = shape.instants ? random.pick(shape.instants) : shape.now - 3 * 365 * DAY + random.int(0, 3 * 365 * DAY - DAY);
    const who = fixed ?? shape.vocabulary.identity(random);
    const jobs = Math.min(this.jobs.draw(random), shape.companies.length);
    const chosen: string[] = [];
    if (shape.distinctCompanies === false) for (let j = 0; j < jobs; j++) chosen.push(this.company());
    else {
      const distinct = new Set<string>();
      for (let tries = 0; distinct.size < jobs && tries < 20; tries++) distinct.add(this.company());
      chosen.push(...distinct);
    }
    const employments: Employment[] = [];
    let at = createdAt;
    for (const companyId of chosen) {
      const whoHere = employments.length ? shape.vocabulary.laterJob(random, who) : who;
      employments.push(this.employment(id, createdAt, companyId, at, whoHere));
      at = shape.instants ? random.pick(shape.instants) : Math.min(at + random.int(1, 300) * DAY, shape.now - DAY);
    }
    return { id, createdAt, updatedAt: this.within(createdAt, shape.now), employments };
  }

  employment(personId: string | null, personCreatedAt: number | null, companyId: string, createdAt: number, who: Identity): Employment {
    const { random, shape } = this;
    const id = random.uuid();
    const externalIds = shape.vocabulary.externalIds(random);
    const email = `${ascii(who.first)}.${ascii(who.last)}${random.int(1, 999)}@${companyId.replace(/_/g, '-')}.example`;
    return {
      id,
      companyId,
      personId,
      personCreatedAt,
      firstName: who.first,
      lastName: who.last,
      dateOfBirth: who.dob,
      gender: who.gender,
      email,
      phone: who.phone,
      ...shape.vocabulary.address(random),
      createdAt,
      updatedAt: this.within(createdAt, shape.now),
      externalIds,
      ...this.states(createdAt),
    };
  }
}

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
