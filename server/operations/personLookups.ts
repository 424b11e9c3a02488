// Coalesces the exact lookups of one event-loop turn (Get person, and searches by a phone
// or a person id alone): those made with the same credential (the same company list,
// cached with it), the same external systems and the same key go to PostgreSQL as one
// statement (PersonQueries.findPagesByKey), so one round trip, one plan and one driver parse serve
// them all. Each caller still gets its own answer, at the statement's asOf: exactly what
// the person query would have said of its lookup alone.

import type { LookupKey, PageAsk, PersonQueries, PersonsByKeyFilter } from '../domain/personQueries.js';
import type { PersonPage } from '../domain/persons.js';

/** Asks per statement at most: however many callers wait, one statement's work stays bounded. */
const BATCH_MAX = 64;

interface Batch {
  filter: PersonsByKeyFilter;
  key: LookupKey;
  asks: PageAsk[];
  waiting: { resolve: (answer: PersonPage) => void; reject: (error: unknown) => void }[];
}

export class PersonLookups {
  /** The batches of this turn, by company list (object identity), then key and external systems. */
  private pending = new Map<readonly string[], Map<string, Batch>>();

  constructor(private readonly persons: PersonQueries) {}

  lookUp(filter: PersonsByKeyFilter, key: LookupKey, ask: PageAsk): Promise<PersonPage> {
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

  private run({ filter, key, asks, waiting }: Batch): void {
    this.persons.findPagesByKey(filter, key, asks).then(
      ({ asOf, answers }) => {
        for (const [i, w] of waiting.entries()) w.resolve({ asOf, ...answers[i]! });
      },
      (error) => {
        for (const w of waiting) w.reject(error);
      },
    );
  }
}
