// Coalesces the Get person lookups of one event-loop turn: those made with the same
// credential (the same company list, cached with it) and the same external systems go to
// PostgreSQL as one statement (findPersonsById), so one round trip, one plan and one
// driver parse serve them all. Each caller still gets its own answer: its person or none,
// at the statement's asOf, exactly what the statement would have said of it alone.
import type { Database } from '../db/database.js';
import { findPersonsById, type PersonsByIdFilter } from '../db/personsById.js';

export interface PersonLookup {
  asOf: string;
  /** The Person as JSON text, or undefined when the credential may see nobody by that id. */
  person?: string;
  /** The person's id as PostgreSQL writes it, when found. */
  personId?: string;
}

/** Ids per statement at most: however many callers wait, one statement's work stays bounded. */
const BATCH_MAX = 64;

interface Batch {
  filter: PersonsByIdFilter;
  ids: string[];
  waiting: { id: string; resolve: (found: PersonLookup) => void; reject: (error: unknown) => void }[];
}

export class PersonLookups {
  /** The batches of this turn, by company list (object identity) and external systems. */
  private pending = new Map<readonly string[], Map<string, Batch>>();

  constructor(private readonly db: Database) {}

  lookUp(filter: PersonsByIdFilter, personId: string): Promise<PersonLookup> {
    if (!this.pending.size) setImmediate(() => this.flush());
    let byCompanies = this.pending.get(filter.authorizedCompanies);
    if (!byCompanies) this.pending.set(filter.authorizedCompanies, (byCompanies = new Map()));
    const systemsKey = filter.externalIdSystems === undefined ? '*' : JSON.stringify(filter.externalIdSystems);
    let batch = byCompanies.get(systemsKey);
    if (!batch || batch.ids.length >= BATCH_MAX) {
      // A full batch goes at once; the next callers start another.
      if (batch) this.run(batch);
      byCompanies.set(systemsKey, (batch = { filter, ids: [], waiting: [] }));
    }
    // PostgreSQL writes a uuid in lower case, whatever case it was asked in.
    const id = personId.toLowerCase();
    const joined = batch;
    joined.ids.push(id);
    return new Promise((resolve, reject) => joined.waiting.push({ id, resolve, reject }));
  }

  private flush(): void {
    const batches = this.pending;
    this.pending = new Map();
    for (const byCompanies of batches.values()) for (const batch of byCompanies.values()) this.run(batch);
  }

  private run({ filter, ids, waiting }: Batch): void {
    findPersonsById(this.db, filter, ids).then(
      ({ asOf, rows }) => {
        const found = new Map<string, string>();
        for (const row of rows) found.set(row.person_id, row.person);
        for (const w of waiting) {
          const person = found.get(w.id);
          w.resolve(person === undefined ? { asOf } : { asOf, person, personId: w.id });
        }
      },
      (error) => {
        for (const w of waiting) w.reject(error);
      },
    );
  }
}
