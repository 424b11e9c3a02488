// Coalesces the exact lookups of one event-loop turn (Get person, searches by a phone or a
// person id alone, and Search employees by a phone alone): those made with the same
// credential (the same company list, cached with it), the same field groups, the same
// external systems and the same key go to PostgreSQL as one statement (personsByKey/,
// employeesByPhone/), so one round trip, one plan and one driver parse serve them all.
// Each caller still gets its own page, at the statement's asOf: exactly what the query
// would have said of its lookup alone.
import type { EmployeeFilter } from '../../domain/employees.js';
import { employeeFilters, personFilters } from '../../domain/employment.js';
import type { FilterRule } from '../../domain/fields.js';
import { type FilterName, type FilterValues, filterNames, type SearchScope } from '../../domain/persons.js';
import type { Page } from '../../domain/reads.js';
import type { PageAsk } from './plans.js';

/** Asks per statement at most: however many callers wait, one statement's work stays bounded. */
const BATCH_MAX = 64;

/** The filters a lookup can be keyed by (`lookup` in their rules): each picks out a handful of employments. */
export type LookupKey = { [Name in FilterName]: (typeof personFilters)[Name] extends { lookup: true } ? Name : never }[FilterName];

/** The key of a search that sets it and no other filter (one the rollups or name structures serve is not a lookup). */
export function lookupKeyOf(filter: FilterValues): LookupKey | undefined {
  const set = filterNames.filter((name) => filter[name] !== undefined);
  return set.length === 1 && (personFilters[set[0]!] as FilterRule).lookup ? (set[0] as LookupKey) : undefined;
}

const employeeFilterNames = Object.keys(employeeFilters) as (keyof typeof employeeFilters)[];

/** The phone of a Search employees filter that sets it and no other filter: an exact lookup too. */
export function phoneLookupOf(filter: EmployeeFilter): string | undefined {
  const set = employeeFilterNames.filter((name) => filter[name] !== undefined);
  return set.length === 1 && set[0] === 'phone' ? filter.phone : undefined;
}

/** One statement for many asks in one scope: each ask's page, in the same order. */
export type FindPages<Key extends string> = (scope: SearchScope, key: Key, asks: readonly PageAsk[]) => Promise<Page[]>;

interface Batch<Key extends string> {
  scope: SearchScope;
  key: Key;
  asks: PageAsk[];
  waiting: { resolve: (page: Page) => void; reject: (error: unknown) => void }[];
}

export class ExactLookups<Key extends string> {
  /** The batches of this turn, by company list (object identity), then key, field groups and external systems. */
  private pending = new Map<readonly string[], Map<string, Batch<Key>>>();

  constructor(private readonly findPages: FindPages<Key>) {}

  lookUp(scope: SearchScope, key: Key, ask: PageAsk): Promise<Page> {
    if (!this.pending.size) setImmediate(() => this.flush());
    let byCompanies = this.pending.get(scope.authorizedCompanies);
    if (!byCompanies) this.pending.set(scope.authorizedCompanies, (byCompanies = new Map()));
    const systems = scope.externalIdSystems === undefined ? '*' : JSON.stringify(scope.externalIdSystems);
    const batchKey = `${key} ${scope.fields.join(',')} ${systems}`;
    let batch = byCompanies.get(batchKey);
    if (!batch || batch.asks.length >= BATCH_MAX) {
      // A full batch goes at once; the next callers start another.
      if (batch) this.run(batch);
      byCompanies.set(batchKey, (batch = { scope, key, asks: [], waiting: [] }));
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

  private run({ scope, key, asks, waiting }: Batch<Key>): void {
    this.findPages(scope, key, asks).then(
      (pages) => {
        for (const [i, w] of waiting.entries()) w.resolve(pages[i]!);
      },
      (error) => {
        for (const w of waiting) w.reject(error);
      },
    );
  }
}
