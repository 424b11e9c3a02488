// The response headers the service sends, declared on every response of every operation that
// carries them, so that generated types and clients know them: X-Request-Id on all,
// RateLimit-* on all but those answered before a token is accepted (401, and a draft's 404
// draft_unavailable where drafts are off), Retry-After on 429 and 503.
// Whether the server really sends them is checked on every response the tests receive
// (tests/helpers/contract.ts: required headers present, present ones valid).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { contractPaths } from '../../server/contract.js';

const document = parse(readFileSync(contractPaths.full, 'utf8'));
/** A `#/components/...` reference's target, or the object itself. */
const resolve = (value: any): any =>
  value?.$ref
    ? resolve(
        value.$ref
          .slice(2)
          .split('/')
          .reduce((at: any, key: string) => at[key], document),
      )
    : value;
const responses = Object.entries<any>(document.paths).flatMap(([path, item]) =>
  Object.entries<any>(item)
    .filter(([method]) => ['get', 'post'].includes(method))
    .flatMap(([method, operation]) =>
      Object.entries<any>(operation.responses).map(([status, response]) => {
        const resolved = resolve(response);
        const headers = Object.fromEntries(Object.entries<any>(resolved.headers ?? {}).map(([name, header]) => [name, resolve(header)]));
        const codes = JSON.stringify(resolved.content ?? {}).match(/"(?:const|enum)":\[?"[a-z_]+"/g) ?? [];
        const beforeToken = status === '401' || (codes.length > 0 && codes.every((code) => code.includes('"draft_unavailable"')));
        return { where: `${method.toUpperCase()} ${path} ${status}`, status, headers, beforeToken };
      }),
    ),
);

describe('response headers in the contract', () => {
  it('covers every operation', () => {
    expect(new Set(responses.map((r) => r.where.split(' ').slice(0, 2).join(' '))).size).toBe(5);
  });

  it.each(responses)('$where declares what the service sends', ({ status, headers, beforeToken }) => {
    expect(headers['X-Request-Id']?.required).toBe(true);
    if (!beforeToken) expect(Object.keys(headers)).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    if (status === '429' || status === '503') expect(headers['Retry-After']?.required).toBe(true);
    if (status === '401') expect(headers['WWW-Authenticate']?.required).toBe(true);
  });
});
