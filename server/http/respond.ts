// Writing responses. Every body is JSON; every error body comes from an ApiError.
import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

/** `status` only where HTTP needs another than the code's own (417 for an expectation). */
export function sendError(res: ServerResponse, error: ApiError, headers: Record<string, string> = {}, status = error.status): void {
  sendJson(res, status, error.body, { ...headers, ...error.headers });
}
