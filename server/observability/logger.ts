// Structured logs (pino). Request lines carry the route template, never the concrete
// path or query (they hold ids and search terms); the redaction list is a second line of
// defence should anything log a request, headers or a body by mistake.
import { pino, type Logger } from 'pino';

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
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'person-lookup' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
