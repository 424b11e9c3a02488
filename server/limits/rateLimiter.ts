// Per-credential request budget and a per-address budget of failed authentications,
// both with rate-limiter-flexible: in memory by default, in Redis when REDIS_URL is set
// so that every instance of the service draws on one shared budget.
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
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import { ApiError } from '../errors.js';

export interface RateLimitSettings {
  points: number;
  perSecond: number;
  authFailuresPerMinute: number;
  /** Namespace of the keys; instances that share a budget share the prefix. */
  keyPrefix?: string;
}

export interface Budget {
  headers: Record<string, string>;
}

export class RateLimits {
  private readonly credentials: BurstyRateLimiter;
  private readonly authFailures: RateLimiterAbstract;

  constructor(private readonly settings: RateLimitSettings, redis?: Redis) {
    const prefix = settings.keyPrefix ?? 'rl';
    const make = (name: string, points: number, duration: number): RateLimiterAbstract => {
      const keyPrefix = `${prefix}:${name}`;
      return redis
        ? new RateLimiterRedis({
            storeClient: redis,
            keyPrefix,
            points,
            duration,
            rejectIfRedisNotReady: true,
            // While Redis is unreachable each instance falls back to its own in-memory
            // budget instead of refusing every request or letting every request through.
            insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
          })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    };
    const burstSeconds = Math.max(1, Math.ceil(settings.points / settings.perSecond));
    this.credentials = new BurstyRateLimiter(make('cred', settings.perSecond, 1), make('burst', settings.points, burstSeconds));
    this.authFailures = make('authfail', settings.authFailuresPerMinute, 60);
  }

  /** Spends one request of the credential's budget, or throws rate_limited. */
  async consume(credentialId: string): Promise<Budget> {
    try {
      const res = await this.credentials.consume(credentialId);
      return { headers: this.credentialHeaders(res) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw limited(rejection, this.credentialHeaders(rejection, 0));
      throw rejection;
    }
  }

  /** Throws rate_limited once this address has used up its failed authentications. */
  async checkAuthFailures(address: string): Promise<void> {
    const res = await this.authFailures.get(addressKey(address));
    if (res && res.consumedPoints >= this.settings.authFailuresPerMinute) throw limited(res, this.addressHeaders(res));
  }

  /** Counts a failed authentication; throws rate_limited when it is one more than the budget allows. */
  async recordAuthFailure(address: string): Promise<void> {
    try {
      await this.authFailures.consume(addressKey(address));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw limited(rejection, this.addressHeaders(rejection));
      throw rejection;
    }
  }

  private credentialHeaders(res: RateLimiterRes, remaining = res.remainingPoints): Record<string, string> {
    return rateLimitHeaders(this.settings.perSecond, remaining, res.msBeforeNext);
  }

  private addressHeaders(res: RateLimiterRes): Record<string, string> {
    return rateLimitHeaders(this.settings.authFailuresPerMinute, 0, res.msBeforeNext);
  }
}

function rateLimitHeaders(limit: number, remaining: number, msBeforeNext: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, Math.min(remaining, limit))),
    'RateLimit-Reset': String(Math.max(0, Math.ceil(msBeforeNext / 1000))),
  };
}

function limited(res: RateLimiterRes, headers: Record<string, string>): ApiError {
  const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new ApiError('rate_limited', undefined, { 'Retry-After': String(retryAfter), ...headers });
}

/**
 * The failed-authentication budget is per client network: an IPv6 client usually holds a
 * whole /64 and could otherwise take a fresh address for every guess.
 */
export function addressKey(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  // An IPv4 tail (64:ff9b::192.0.2.1) is two groups of its own.
  const hexOnly = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const [head = '', tail = ''] = hexOnly.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const full = hexOnly.includes('::') ? [...groups(head), ...Array<string>(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)] : groups(hexOnly);
  return `${full.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
