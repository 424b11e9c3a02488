// Per-credential request budget and a per-address budget of failed authentications,
// both with rate-limiter-flexible: in memory by default, in Redis when REDIS_URL is set
// so that every instance of the service draws on one shared budget.
//
// The credential budget is a sustained rate with a burst allowance, the library's
// BurstyRateLimiter: RATE_LIMIT_PER_SECOND requests per one-second window, and above
// that up to RATE_LIMIT_BURST more that refill over burst/rate seconds. Together they
// act like a token bucket. The RateLimit-* headers describe the sustained window.
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
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
      return { headers: this.headers(res) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw this.limited(rejection);
      throw rejection;
    }
  }

  /** Throws rate_limited once this address has used up its failed authentications. */
  async checkAuthFailures(address: string): Promise<void> {
    const res = await this.authFailures.get(address);
    if (res && res.consumedPoints >= this.settings.authFailuresPerMinute) throw this.limited(res);
  }

  async recordAuthFailure(address: string): Promise<void> {
    await this.authFailures.penalty(address, 1);
  }

  private limited(res: RateLimiterRes): ApiError {
    const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return new ApiError('rate_limited', undefined, { 'Retry-After': String(retryAfter), ...this.headers(res, 0) });
  }

  private headers(res: RateLimiterRes, remaining = res.remainingPoints): Record<string, string> {
    return {
      'RateLimit-Limit': String(this.settings.perSecond),
      'RateLimit-Remaining': String(Math.max(0, Math.min(remaining, this.settings.perSecond))),
      'RateLimit-Reset': String(Math.max(0, Math.ceil(res.msBeforeNext / 1000))),
    };
  }
}
