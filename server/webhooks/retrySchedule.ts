// When a failed delivery is tried again: exponential backoff with jitter, for 24 hours from
// the batch's first failure, then the endpoint is disabled (docs/decisions/0023-webhooks.md).

/** How long a batch keeps being retried after its first failure. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
const FIRST_DELAY_MS = 1_000;
const LONGEST_DELAY_MS = 3_600_000;

/**
 * The wait before attempt `failures + 1`: 1 s, 2 s, 4 s… doubling up to an hour, each drawn
 * between half and all of that ("equal jitter"), so receivers coming back from an outage
 * are not met by every endpoint's retry at once. `random` is in [0, 1).
 */
export function retryDelayMs(failures: number, random: number = Math.random()): number {
  const ceiling = Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(Math.max(failures - 1, 0), 32));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/** Whether a batch that first failed at `firstFailedAt` is past its retry window at `now`. */
export function retryWindowOver(firstFailedAt: Date, now: Date): boolean {
  return now.getTime() - firstFailedAt.getTime() >= RETRY_WINDOW_MS;
}
