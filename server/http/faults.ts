// Classifies unexpected errors: the database being unreachable or too slow, or another
// ServiceUnavailable (the audit spool failing), is a 503 the client can retry; anything
// else is a 500. Neither ever shows the error itself.
import { ApiError, ServiceUnavailable } from '../errors.js';

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57014', // query_canceled (statement_timeout)
  '57P01',
  '57P02',
  '57P03', // admin_shutdown, crash_shutdown, cannot_connect_now
  '08000',
  '08003',
  '08006',
  '08001',
  '08004', // connection exceptions
  '53300', // too_many_connections
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
  const message = e.message ?? '';
  return /timeout exceeded when trying to connect|Connection terminated|connection is closed|Client has encountered a connection error/i.test(message);
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error) || error instanceof ServiceUnavailable) return new ApiError('service_unavailable', undefined, { 'Retry-After': '1' });
  return new ApiError('internal_error');
}
