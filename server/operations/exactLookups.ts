// Coalesces the exact lookups of one event-loop turn (Get person, searches by a phone or a
// person id alone, and Search employees by a phone alone): those made with the same
// credential (the same company list, cached with it), the same external systems and the
// same key go to PostgreSQL as one statement (PersonQueries.findPagesByKey,
// EmployeeQueries.findPagesByPhone), so one round trip, one plan and one driver parse serve
// them all. Each caller still gets its own answer, at the statement's asOf: exactly what
// the query would have said of its lookup alone.

import type { EmployeeAnswer } from '../domain/employeeQueries.js';
import type { LookupKey, PageAnswer, PageAsk, PersonsByKeyFilter } from '../domain/personQueries.js';

/** Asks per statement at most: however many callers wait, one statement's work stays bounded. */
const BATCH_MAX = 64;

/** One statement for many asks: each ask's answer in the same order, and the statement's asOf. */
export type FindPages<Key extends string, Answer> = (
  filter: PersonsByKeyFilter,
  key: Key,
  asks: readonly PageAsk[],
) => Promise<{ asOf: string; answers: Answer[] }>;

interface Batch<Key extends string, Answer> {
  filter: PersonsByKeyFilter;
  key: Key;
  asks: PageAsk[];
  waiting: { resolve: (answer: Answer & { asOf: string }) => void; reject: (error: unknown) => void }[];
}

export class ExactLookups<Key extends string, Answer> {
  /** The batches of this turn, by company list (object identity), then key and external systems. */
  private pending = new Map<readonly string[], Map<string, Batch<Key, Answer>>>();

  constructor(private readonly findPages: FindPages<Key, Answer>) {}

  lookUp(filter: PersonsByKeyFilter, key: Key, ask: PageAsk): Promise<Answer & { asOf: string }> {
    if (!this.pending.size) setImmediate(() => this.flush());
    let byCompanies = this.pending.get(filter.authorizedCompanies);
    if (!byCompanies) this.pending.set(filter.authorizedCompanies, (byCompanies = new Map()));
    const batchKey = `${key} ${filter.externalIdSystems === undefined ? '*' : JSON.stringify(filter.externalIdSystems)}`;
    let batch = byCompanies.get(batchKey);
    if (!batch || batch.asks.length >= BATCH_MAX) {
      // A full batch goes at once; the next callers start another.
      if (batch) this.run(batch);
      byCompanies.set(batchKey, (batch = { filter, key, asks: [], waiting: [] }));
    }
    const joined = batch;
    joined.asks.push(ask);
    return new Promise((resolve, reject) => joined.waiting.push({ resolve, reject }));
  }

  private flush(): void {
    const batches = this.pending;
    this.pending = new Map();
    for (const byCompanies of batches.values()) for (const batch of byCompanies.values()) this.run(batch);
  }

  private run({ filter, key, asks, waiting }: Batch<Key, Answer>): void {
    this.findPages(filter, key, asks).then(
      ({ asOf, answers }) => {
        for (const [i, w] of waiting.entries()) w.resolve({ asOf, ...answers[i]! });
      },
      (error) => {
        for (const w of waiting) w.reject(error);
      },
    );
  }
}

/** The person operations' lookups: by a person id or a phone. */
export type PersonLookups = ExactLookups<LookupKey, PageAnswer>;
/** Search employees' lookups: by a phone. */
export type EmployeeLookups = ExactLookups<'phone', EmployeeAnswer>;
