// The service's own count of slow answers, beside the load generator's: where the searches'
// stalls during a change arise. The service times a request from when it reads it to when
// it has answered (http_request_duration_seconds); the open loop from when the request was
// due. Slow answers the service counts too were slow in the service or the database; slow
// answers only the load generator counts waited before the service read them or after it
// answered (a process not given the CPU, on either side), or while the service's own
// event loop was held (its garbage collection, a page read back from disk, or a wait for
// a core): its /metrics and /proc say that too.
import { majorFaults, runQueueWaitSeconds } from '../cpu.js';

/** Answers slower than this are counted on both sides; a bucket bound of the service's histogram. */
export const SLOW_ANSWER_SECONDS = 0.1;

export interface AnswerTally {
  answers: number;
  slow: number;
}

/** The service's answers over a period, and what held its event loop meanwhile (prom-client's default metrics). */
export interface ServiceTally extends AnswerTally {
  /** Its event loop's longest delay, ms (the service resets it at each read of /metrics: the period's own). */
  eventLoopMaxMs: number;
  /** Its garbage collections that paused it over SLOW_ANSWER_SECONDS, and all its collections' pauses, s. */
  slowCollections: number;
  collectionSeconds: number;
  /** Its process's major page faults, from /proc (0 where not read): each a wait for the disk. */
  majorFaults: number;
  /** Seconds its event loop's thread was ready to run but waited for a core, from /proc (0 where not read). */
  waitedForCoreSeconds: number;
}

/**
 * The API's answers so far, and those over SLOW_ANSWER_SECONDS, from the service's /metrics.
 * Operational routes (`/metrics` itself, read here around each period) are left out.
 */
export async function serviceAnswers(serviceUrl: string, pid?: number): Promise<ServiceTally> {
  const res = await fetch(new URL('/metrics', serviceUrl));
  if (!res.ok) throw new Error(`the service's /metrics answered ${res.status}`);
  const tally = tallyOf(await res.text());
  return pid === undefined ? tally : { ...tally, majorFaults: majorFaults(pid) ?? 0, waitedForCoreSeconds: runQueueWaitSeconds(pid) ?? 0 };
}

export function tallyOf(metrics: string): ServiceTally {
  let answers = 0;
  let fast = 0;
  let collections = 0;
  let fastCollections = 0;
  let collectionSeconds = 0;
  let eventLoopMaxMs = 0;
  const bound = `le="${SLOW_ANSWER_SECONDS}"`;
  for (const line of metrics.split('\n')) {
    if (line.includes('route="/')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('http_request_duration_seconds_count{')) answers += value;
    else if (line.startsWith('http_request_duration_seconds_bucket{') && line.includes(bound)) fast += value;
    else if (line.startsWith('nodejs_gc_duration_seconds_count{')) collections += value;
    else if (line.startsWith('nodejs_gc_duration_seconds_sum{')) collectionSeconds += value;
    else if (line.startsWith('nodejs_gc_duration_seconds_bucket{') && line.includes(bound)) fastCollections += value;
    else if (line.startsWith('nodejs_eventloop_lag_max_seconds')) eventLoopMaxMs = value * 1000;
  }
  return {
    answers,
    slow: answers - fast,
    eventLoopMaxMs,
    slowCollections: collections - fastCollections,
    collectionSeconds,
    majorFaults: 0,
    waitedForCoreSeconds: 0,
  };
}

/** What the service answered between two tallies (the event loop's longest delay is the later read's own). */
export function between(before: ServiceTally, after: ServiceTally): ServiceTally {
  return {
    answers: after.answers - before.answers,
    slow: after.slow - before.slow,
    eventLoopMaxMs: after.eventLoopMaxMs,
    slowCollections: after.slowCollections - before.slowCollections,
    collectionSeconds: after.collectionSeconds - before.collectionSeconds,
    majorFaults: after.majorFaults - before.majorFaults,
    waitedForCoreSeconds: after.waitedForCoreSeconds - before.waitedForCoreSeconds,
  };
}

export function sum(tallies: readonly ServiceTally[]): ServiceTally {
  return tallies.reduce(
    (a, t) => ({
      answers: a.answers + t.answers,
      slow: a.slow + t.slow,
      eventLoopMaxMs: Math.max(a.eventLoopMaxMs, t.eventLoopMaxMs),
      slowCollections: a.slowCollections + t.slowCollections,
      collectionSeconds: a.collectionSeconds + t.collectionSeconds,
      majorFaults: a.majorFaults + t.majorFaults,
      waitedForCoreSeconds: a.waitedForCoreSeconds + t.waitedForCoreSeconds,
    }),
    { answers: 0, slow: 0, eventLoopMaxMs: 0, slowCollections: 0, collectionSeconds: 0, majorFaults: 0, waitedForCoreSeconds: 0 },
  );
}

/** The load generator's count over the same bound, from its latencies in milliseconds. */
export function clientTally(latenciesMs: readonly number[]): AnswerTally {
  return { answers: latenciesMs.length, slow: latenciesMs.filter((ms) => ms > SLOW_ANSWER_SECONDS * 1000).length };
}
