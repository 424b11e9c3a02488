// Fixed windows of points per key, in this process's memory: rate-limiter-flexible's
// RateLimiterMemory (a window opens on a key's first point and lasts `durationMs`; points
// past the budget are still counted), answered synchronously. The library answers every
// call with a promise, which puts two or three promise turns on each request's path for
// what is a Map lookup; the Redis-backed budgets keep the library.

export interface WindowState {
  /** Points consumed in the current window, this one included. */
  consumed: number;
  remaining: number;
  msBeforeNext: number;
}

const SWEEP_EVERY_MS = 60_000;

export class MemoryWindows {
  private readonly windows = new Map<string, { consumed: number; expiresAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly points: number,
    private readonly durationMs: number,
  ) {
    // Expired windows are dropped now and then, so keys seen once do not stay for good.
    this.sweeper = setInterval(() => this.sweep(), Math.max(SWEEP_EVERY_MS, durationMs)).unref();
  }

  consume(key: string, now = Date.now()): WindowState {
    let window = this.windows.get(key);
    if (!window || window.expiresAt <= now) this.windows.set(key, (window = { consumed: 0, expiresAt: now + this.durationMs }));
    window.consumed++;
    return this.state(window, now);
  }

  get(key: string, now = Date.now()): WindowState | undefined {
    const window = this.windows.get(key);
    return window && window.expiresAt > now ? this.state(window, now) : undefined;
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private state(window: { consumed: number; expiresAt: number }, now: number): WindowState {
    return { consumed: window.consumed, remaining: Math.max(this.points - window.consumed, 0), msBeforeNext: window.expiresAt - now };
  }

  private sweep(now = Date.now()): void {
    for (const [key, window] of this.windows) if (window.expiresAt <= now) this.windows.delete(key);
  }
}
