// Per-credential request budget and a per-address budget of failed authentications: in
// memory by default (memoryWindows.ts, rate-limiter-flexible's in-memory windows answered
// synchronously), in Redis with rate-limiter-flexible when REDIS_URL is set so that every
// instance of the service draws on one shared budget (redisBudgets.ts, loaded only then).
//
// The credential budget is a sustained rate with a burst allowance, the library's
// BurstyRateLimiter: RATE_LIMIT_PER_SECOND requests per one-second window, and above
// that up to RATE_LIMIT_BURST more that refill over burst/rate seconds. Together they
// act like a token bucket. Each budget's answers describe that budget: the credential's
// RateLimit-* headers its sustained window, the address's 429 its failures per minute.
//
// Failed authentications are counted by consuming a point when one happens, which is
// atomic in memory and in Redis alike: of any number of concurrent failures from one
// address, exactly the budget's worth are answered 401, the rest 429. (A check before
// authenticating and a record after it would let every concurrent request pass the check.)
import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import { ApiError } from '../errors.js';
import { MemoryWindows } from './memoryWindows.js';
import type { SharedBudgets } from './redisBudgets.js';

export interface RateLimitSettings {
  points: number;
  perSecond: number;
  authFailuresPerMinute: number;
  /** Namespace of the keys; instances that share a budget share the prefix. */
  keyPrefix?: string;
}

export class RateLimits {
  /** Without Redis: this instance's own budgets, answered synchronously. */
  private readonly memory?: { sustained: MemoryWindows; burst: MemoryWindows; authFailures: MemoryWindows };
  /** With Redis: budgets shared by every instance, each falling back to memory while Redis is away. */
  private readonly shared?: SharedBudgets;

  /** Use `create`, which loads the Redis budgets only where there is a Redis. */
  private constructor(
    private readonly settings: RateLimitSettings,
    shared: SharedBudgets | undefined,
  ) {
    if (shared) {
      this.shared = shared;
      return;
    }
    this.memory = {
      sustained: new MemoryWindows(settings.perSecond, 1_000),
      burst: new MemoryWindows(settings.points, burstSeconds(settings) * 1_000),
      authFailures: new MemoryWindows(settings.authFailuresPerMinute, 60_000),
    };
  }

  static async create(settings: RateLimitSettings, redis?: Redis): Promise<RateLimits> {
    if (!redis) return new RateLimits(settings, undefined);
    const { redisBudgets } = await import('./redisBudgets.js');
    return new RateLimits(settings, redisBudgets({ ...settings, keyPrefix: settings.keyPrefix ?? 'rl', burstSeconds: burstSeconds(settings) }, redis));
  }

  /**
   * Spends one request of the credential's budget and adds its RateLimit-* headers to
   * `headers` (flat: name, value, …), or throws rate_limited. Synchronous in memory (done,
   * or a throw); a promise with Redis. `now` is the request's clock reading, which the
   * in-memory windows go by.
   */
  consume(credentialId: string, headers: string[], now = Date.now()): void | Promise<void> {
    if (this.memory) {
      // BurstyRateLimiter's rule: the sustained window first; past it, the burst allowance,
      // with the sustained window's remaining points and the nearer of the two resets.
      const { sustained, burst } = this.memory;
      const rate = sustained.consume(credentialId, now);
      if (rate.consumed <= sustained.points) {
        this.addCredentialHeaders(headers, rate.remaining, rate.msBeforeNext);
        return;
      }
      const extra = burst.consume(credentialId, now);
      const msBeforeNext = Math.min(rate.msBeforeNext, extra.msBeforeNext);
      if (extra.consumed <= burst.points) {
        this.addCredentialHeaders(headers, rate.remaining, msBeforeNext);
        return;
      }
      throw limited(msBeforeNext, this.credentialHeaders(0, msBeforeNext));
    }
    return this.shared!.consumeCredential(credentialId).then((res) => {
      if (!res.allowed) throw limited(res.msBeforeNext, this.credentialHeaders(0, res.msBeforeNext));
      this.addCredentialHeaders(headers, res.remaining, res.msBeforeNext);
    });
  }

  /** Throws rate_limited once this address has used up its failed authentications (synchronously in memory). */
  checkAuthFailures(address: string, now = Date.now()): void | Promise<void> {
    if (this.memory) {
      const state = this.memory.authFailures.get(addressKey(address), now);
      if (state) this.refusePastAuthFailures(state.consumed, state.msBeforeNext);
      return;
    }
    return this.shared!.authFailures(addressKey(address)).then((res) => {
      if (res) this.refusePastAuthFailures(res.consumed, res.msBeforeNext);
    });
  }

  /** Counts a failed authentication; throws rate_limited when it is one more than the budget allows. */
  recordAuthFailure(address: string): void | Promise<void> {
    if (this.memory) {
      const state = this.memory.authFailures.consume(addressKey(address));
      if (state.consumed > this.settings.authFailuresPerMinute) throw limited(state.msBeforeNext, this.addressHeaders(state.msBeforeNext));
      return;
    }
    return this.shared!.consumeAuthFailure(addressKey(address)).then((res) => {
      if (!res.allowed) throw limited(res.msBeforeNext, this.addressHeaders(res.msBeforeNext));
    });
  }

  close(): void {
    if (!this.memory) return;
    for (const windows of Object.values(this.memory)) windows.close();
  }

  private refusePastAuthFailures(consumed: number, msBeforeNext: number): void {
    if (consumed >= this.settings.authFailuresPerMinute) throw limited(msBeforeNext, this.addressHeaders(msBeforeNext));
  }

  private credentialHeaders(remaining: number, msBeforeNext: number): Record<string, string> {
    return headerRecord(this.addCredentialHeaders([], remaining, msBeforeNext));
  }

  private addCredentialHeaders(headers: string[], remaining: number, msBeforeNext: number): string[] {
    return addRateLimitHeaders(headers, this.settings.perSecond, remaining, msBeforeNext);
  }

  private addressHeaders(msBeforeNext: number): Record<string, string> {
    return headerRecord(addRateLimitHeaders([], this.settings.authFailuresPerMinute, 0, msBeforeNext));
  }
}

/** The budget burst allowance refills over burst/rate seconds. */
function burstSeconds(settings: RateLimitSettings): number {
  return Math.max(1, Math.ceil(settings.points / settings.perSecond));
}

function addRateLimitHeaders(headers: string[], limit: number, remaining: number, msBeforeNext: number): string[] {
  headers.push(
    'RateLimit-Limit',
    String(limit),
    'RateLimit-Remaining',
    String(Math.max(0, Math.min(remaining, limit))),
    'RateLimit-Reset',
    String(Math.max(0, Math.ceil(msBeforeNext / 1000))),
  );
  return headers;
}

function headerRecord(list: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) record[list[i]!] = list[i + 1]!;
  return record;
}

function limited(msBeforeNext: number, headers: Record<string, string>): ApiError {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError('rate_limited', undefined, { 'Retry-After': String(retryAfter), ...headers });
}

/**
 * The failed-authentication budget is per client network: an IPv6 client usually holds a
 * whole /64 and could otherwise take a fresh address for every guess.
 */
export function addressKey(address: string): string {
  // An IPv4 address has no colon; isIPv6 is one long regular expression.
  if (!address.includes(':') || !isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  // An IPv4 tail (64:ff9b::192.0.2.1) is two groups of its own.
  const hexOnly = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const [head = '', tail = ''] = hexOnly.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const full = hexOnly.includes('::')
    ? [...groups(head), ...Array<string>(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)]
    : groups(hexOnly);
  return `${full
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
