// Writing responses. Every body is JSON; every error body comes from an ApiError.
// Headers go to writeHead as one flat list (name, value, name, value, …): node walks an
// object's keys into such a list anyway, so a request's headers are collected in one
// from the start (HeaderList) and no object is built, spread or walked per answer.
import type { ServerResponse } from 'node:http';
import type { ApiError } from '../errors.js';

/** Response headers, flat: `['X-Request-Id', id, 'RateLimit-Limit', '50', …]`. */
export type HeaderList = string[];
export type Headers = HeaderList | Record<string, string>;

/** `headers` with each of `more` appended, replacing a header of the same name. */
export function withHeaders(headers: Headers, more: Record<string, string> | undefined): HeaderList {
  const list = Array.isArray(headers) ? headers.slice() : Object.entries(headers).flat();
  if (!more) return list;
  for (const [name, value] of Object.entries(more)) {
    const lower = name.toLowerCase();
    const at = list.findIndex((existing, i) => i % 2 === 0 && existing.toLowerCase() === lower);
    if (at === -1) list.push(name, value);
    else list[at + 1] = value;
  }
  return list;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Headers = []): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** A body already serialized as JSON text, sent as is (HEAD: node leaves it out, the length stays). */
export function sendJsonText(res: ServerResponse, status: number, payload: string, headers: Headers = []): void {
  // slice and push, not concat: concat with single values leaves V8's fast path for its C++ one.
  const list = Array.isArray(headers) ? headers.slice() : Object.entries(headers).flat();
  list.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(payload)));
  res.writeHead(status, list);
  res.end(payload);
}

/** `status` only where HTTP needs another than the code's own (417 for an expectation). */
export function sendError(res: ServerResponse, error: ApiError, headers: Headers = [], status = error.status): void {
  sendJson(res, status, error.body, withHeaders(headers, error.headers));
}
