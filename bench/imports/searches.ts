// The searches run while a change file is applied: each person kind's filters (at most 100
// per kind), for the credential of one large company, derived as the service derives them
// from its configuration, four at once; their latencies beside an idle period just before.
import { loadConfig } from '../../server/config.js';
import type { Database, Queryable } from '../../server/db/engines/database.js';
import { findPersons } from '../../server/db/persons/persons.js';
import type { PersonFilter } from '../../server/domain/persons.js';
import type { DatasetInfo } from '../dataset/build.js';
import { childEnv } from '../processes.js';
import { askAs, type PersonKind, personWorkload } from '../scenarios.js';
import { percentile, round } from '../stats.js';

const PER_KIND = 100;
const CONCURRENCY = 4;
/** Seconds of searches with nothing being imported, just before the change file is applied with searches running. */
export const IDLE_SEARCH_SECONDS = 8;

type Latencies = { requests: number; p50: number; p99: number };

export interface SearchesDuringImport {
  filters: string;
  idle: Latencies;
  during: Latencies & { seconds: number };
}

export async function searchFilters(
  db: Queryable,
  databaseUrl: string,
  info: DatasetInfo,
  kinds: readonly PersonKind[],
  samples: number,
): Promise<PersonFilter[]> {
  const { held, samples: drawn } = await askAs(db, info, 'oneLarge', samples);
  const config = loadConfig(childEnv({ APP_ENV: 'development', DEMO_DATA: 'false', DATABASE_URL: databaseUrl }));
  return kinds.flatMap((kind) => personWorkload(kind, drawn, held, config).direct.slice(0, PER_KIND));
}

/** Searches for IDLE_SEARCH_SECONDS, then while `apply()` runs: both periods' latencies, and apply's result. */
export async function whileSearching<T>(db: Database, filters: PersonFilter[], apply: () => Promise<T>): Promise<[T, SearchesDuringImport]> {
  const idle = await searchWhile(db, filters, sleepFor(IDLE_SEARCH_SECONDS));
  const started = performance.now();
  const applying = apply();
  const during = await searchWhile(db, filters, applying);
  const seconds = round((performance.now() - started) / 1000, 1);
  const searches = { filters: `the bench filter kinds (one large company), ${CONCURRENCY} at once`, idle: stats(idle), during: { ...stats(during), seconds } };
  return [await applying, searches];
}

const sleepFor = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** Searches (the filters round-robin, CONCURRENCY at once) until `until` settles; latencies in ms. */
async function searchWhile(db: Database, filters: PersonFilter[], until: Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  until.then(
    () => (done = true),
    () => (done = true),
  );
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (!done) {
        const t = performance.now();
        await findPersons(db, filters[next++ % filters.length]!);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies;
}

const stats = (latencies: number[]): Latencies => ({
  requests: latencies.length,
  p50: round(percentile(latencies, 0.5), 2),
  p99: round(percentile(latencies, 0.99), 2),
});
