// What the service says about its Redis: one warning when it becomes unavailable, one
// line when it is back, and at most one reminder per `reminderMs` in between. ioredis
// reports every failed reconnection (one every two seconds or so); each is the same news.
// Lines carry the cause's message, never a stack: the stack of a refused connection says
// nothing an operator can use.
import type { Redis } from 'ioredis';
import type { Logger } from '../observability/logger.js';

export const REDIS_REMINDER_MS = 60_000;

export class RedisHealth {
  private downSince?: number;
  private lastSaid = 0;

  constructor(
    redis: Redis,
    private readonly logger: Logger,
    private readonly reminderMs = REDIS_REMINDER_MS,
  ) {
    redis.on('error', (error: Error) => this.lost(error.message));
    // Emitted when a connection is lost and will be tried again (not on a disconnect at shutdown).
    redis.on('reconnecting', () => this.lost('connection lost; reconnecting'));
    redis.on('ready', () => this.back());
  }

  /** Redis cannot be used now (`cause`); said once, then at most once per reminder period. */
  lost(cause: string): void {
    const now = Date.now();
    if (this.downSince === undefined) {
      this.downSince = this.lastSaid = now;
      this.logger.warn({ cause }, 'redis unavailable; rate limits fall back to this instance');
      return;
    }
    if (now - this.lastSaid < this.reminderMs) return;
    this.lastSaid = now;
    this.logger.warn({ cause, downForMs: now - this.downSince }, 'redis still unavailable; rate limits use this instance');
  }

  private back(): void {
    if (this.downSince === undefined) return;
    this.logger.info({ downForMs: Date.now() - this.downSince }, 'redis available again; rate limits are shared again');
    this.downSince = undefined;
  }
}
