// Structured logs (pino). Request lines carry the route template, never the concrete
// path or query (they hold ids and search terms); the redaction list is a second line of
// defence should anything log a request, headers or a body by mistake.
import { type Logger, pino } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'token',
  '*.token',
  'body',
  '*.body',
  'query',
  '*.query',
  'phone',
  '*.phone',
  'email',
  '*.email',
  'firstName',
  'lastName',
  '*.firstName',
  '*.lastName',
  'params',
  '*.params',
];

/**
 * Errors are logged by an allow-list of fields. A database error carries more than its
 * message: PGlite attaches the statement's parameters (search names, phones, company
 * lists) and PostgreSQL's `detail` can quote stored values, so those never reach a log.
 * A data exception (SQLSTATE class 22: invalid input syntax, value out of range) quotes
 * the offending input in its message, so quoted text is taken out of message and stack.
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const e = error as Error & { code?: unknown; severity?: unknown; routine?: unknown; cause?: unknown };
  const quotesInput = typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code);
  const scrub = (text: string | undefined) => (quotesInput && text ? text.replace(/"[^"\n]*"/g, '"[redacted]"') : text);
  const out: Record<string, unknown> = { type: e.constructor?.name ?? e.name, name: e.name, message: scrub(e.message), stack: scrub(e.stack) };
  for (const key of ['code', 'severity', 'routine'] as const) if (typeof e[key] === 'string') out[key] = e[key];
  if (e.cause !== undefined && depth < 3) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/** `fields`: added to every line (traces on: the current span's ids, tracing.ts logFields). */
export function createLogger(level: string, destination?: pino.DestinationStream, fields?: () => Record<string, string>): Logger {
  return pino(
    {
      level,
      ...(fields && { mixin: fields }),
      base: { service: 'person-lookup' },
      serializers: { err: serializeError },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
