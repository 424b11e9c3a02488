// Failures of the service (500) and of its database (503) in the log, without flooding
// it: during an outage every request fails the same way, and a line with a stack for each
// would bury everything else. The first failure of a kind is logged in full (error,
// stack, request id, route); its repeats are counted and logged once per window as one
// summary line with their count and routes, no stack. A kind that stays quiet for a whole
// window is forgotten, so its next occurrence is logged in full again.
import type { ApiError } from '../errors.js';
import type { Logger } from './logger.js';

export const FAULT_WINDOW_MS = 10_000;
const MAX_KINDS = 50; // a flood of distinct messages still cannot grow memory without bound

interface Repeats {
  count: number;
  routes: Record<string, number>;
}

export class FaultLog {
  private readonly kinds = new Map<string, Repeats>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly windowMs = FAULT_WINDOW_MS,
  ) {}

  report(error: unknown, answered: ApiError, context: { requestId: string; route: string }): void {
    let kind = faultKind(error, answered);
    if (!this.kinds.has(kind) && this.kinds.size >= MAX_KINDS) kind = 'other faults';
    const repeats = this.kinds.get(kind);
    if (repeats) {
      repeats.count++;
      repeats.routes[context.route] = (repeats.routes[context.route] ?? 0) + 1;
      return;
    }
    this.kinds.set(kind, { count: 0, routes: {} });
    this.logger.error({ err: error, ...context, status: answered.status, fault: kind }, 'request failed');
    this.timer ??= setInterval(() => this.flush(), this.windowMs).unref();
  }

  /** Logs the repeats counted so far (at each window's end, and when the server closes). */
  flush(): void {
    for (const [kind, repeats] of this.kinds) {
      if (repeats.count === 0) {
        this.kinds.delete(kind);
        continue;
      }
      this.logger.error({ fault: kind, repeats: repeats.count, routes: repeats.routes, windowSeconds: this.windowMs / 1000 }, 'request failed again (summary)');
      this.kinds.set(kind, { count: 0, routes: {} });
    }
    if (this.kinds.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  close(): void {
    this.flush();
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * What makes two failures the same: the answer, the error's type and code, and its message
 * with quoted text and numbers taken out (they may hold a request's values).
 */
function faultKind(error: unknown, answered: ApiError): string {
  if (!(error instanceof Error)) return `${answered.code}: ${typeof error}`;
  const code = (error as { code?: unknown }).code;
  const message = error.message
    .replace(/"[^"]*"|'[^']*'/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 200);
  return `${answered.code}: ${error.constructor?.name ?? error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${message}`;
}
