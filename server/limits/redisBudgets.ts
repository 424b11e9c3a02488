// The budgets every instance shares through Redis, with rate-limiter-flexible (loaded only
// where REDIS_URL is set): the credential's sustained window and burst allowance
// (BurstyRateLimiter) and the address's failed authentications. While Redis is
// unreachable each falls back to this instance's own in-memory budget instead of refusing
// every request or letting every request through.

import type { Redis } from 'ioredis';
import { BurstyRateLimiter, type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** A point spent (or refused: `allowed` false) and where its window stands. */
export interface SharedAnswer {
  allowed: boolean;
  remaining: number;
  msBeforeNext: number;
}

export interface SharedBudgets {
  consumeCredential(credentialId: string): Promise<SharedAnswer>;
  /** Failed authentications of the address in its current window, if it has one. */
  authFailures(key: string): Promise<{ consumed: number; msBeforeNext: number } | undefined>;
  consumeAuthFailure(key: string): Promise<SharedAnswer>;
}

export function redisBudgets(
  settings: { points: number; perSecond: number; authFailuresPerMinute: number; keyPrefix: string; burstSeconds: number },
  redis: Redis,
): SharedBudgets {
  const make = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const keyPrefix = `${settings.keyPrefix}:${name}`;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
    });
  };
  const credentials = new BurstyRateLimiter(make('cred', settings.perSecond, 1), make('burst', settings.points, settings.burstSeconds));
  const authFailures = make('authfail', settings.authFailuresPerMinute, 60);
  const answer = (promise: Promise<RateLimiterRes>): Promise<SharedAnswer> =>
    promise.then(
      (res) => ({ allowed: true, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext }),
      (rejection) => {
        if (rejection instanceof RateLimiterRes) return { allowed: false, remaining: 0, msBeforeNext: rejection.msBeforeNext };
        throw rejection;
      },
    );
  return {
    consumeCredential: (credentialId) => answer(credentials.consume(credentialId)),
    authFailures: (key) => authFailures.get(key).then((res) => (res ? { consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext } : undefined)),
    consumeAuthFailure: (key) => answer(authFailures.consume(key)),
  };
}
