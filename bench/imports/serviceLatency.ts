// The service's own count of slow answers, beside the load generator's: where the searches'
// stalls during a change arise. The service times a request from when it reads it to when
// it has answered (http_request_duration_seconds); the open loop from when the request was
// due. Slow answers the service counts too were slow in the service or the database; slow
// answers only the load generator counts waited before the service read them or after it
// answered (a process not given the CPU, on either side).

/** Answers slower than this are counted on both sides; a bucket bound of the service's histogram. */
export const SLOW_ANSWER_SECONDS = 0.1;

export interface AnswerTally {
  answers: number;
  slow: number;
}

/**
 * The API's answers so far, and those over SLOW_ANSWER_SECONDS, from the service's /metrics.
 * Operational routes (`/metrics` itself, read here around each period) are left out.
 */
export async function serviceAnswers(serviceUrl: string): Promise<AnswerTally> {
  const res = await fetch(new URL('/metrics', serviceUrl));
  if (!res.ok) throw new Error(`the service's /metrics answered ${res.status}`);
  return tallyOf(await res.text());
}

export function tallyOf(metrics: string): AnswerTally {
  let answers = 0;
  let fast = 0;
  const bound = `le="${SLOW_ANSWER_SECONDS}"`;
  for (const line of metrics.split('\n')) {
    if (line.includes('route="/')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('http_request_duration_seconds_count{')) answers += value;
    else if (line.startsWith('http_request_duration_seconds_bucket{') && line.includes(bound)) fast += value;
  }
  return { answers, slow: answers - fast };
}

/** What the service answered between two tallies. */
export function between(before: AnswerTally, after: AnswerTally): AnswerTally {
  return { answers: after.answers - before.answers, slow: after.slow - before.slow };
}

export function sum(tallies: readonly AnswerTally[]): AnswerTally {
  return tallies.reduce((a, t) => ({ answers: a.answers + t.answers, slow: a.slow + t.slow }), { answers: 0, slow: 0 });
}

/** The load generator's count over the same bound, from its latencies in milliseconds. */
export function clientTally(latenciesMs: readonly number[]): AnswerTally {
  return { answers: latenciesMs.length, slow: latenciesMs.filter((ms) => ms > SLOW_ANSWER_SECONDS * 1000).length };
}
