// A bound on how long a request waits for the database. statement_timeout is enforced by
// PostgreSQL, and the pool's connection timeout only covers getting a connection: a
// database that stops answering on an open connection (a network partition, a hung proxy
// or host) would hold the request, and its client, forever. Past the deadline the request
// is answered 503 service_unavailable; the abandoned query ends whenever its connection does.
import type { Config } from '../config.js';

const MARGIN_MS = 1_000;

export class DeadlineExceeded extends Error {
  readonly code = 'ETIMEDOUT'; // classified as the database being unavailable (faults.ts)
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = 'DeadlineExceeded';
  }
}

/** Waiting for a connection plus one statement, and a margin; none when statements are unbounded. */
export function databaseDeadlineMs(config: Pick<Config, 'statementTimeoutMs' | 'connectionTimeoutMs'>): number {
  return config.statementTimeoutMs > 0 ? config.connectionTimeoutMs + config.statementTimeoutMs + MARGIN_MS : 0;
}

export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  if (ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(ms)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
