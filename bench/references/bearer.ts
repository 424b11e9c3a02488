// The bearer check of the bare hello reference, the same work as the service's hot path
// with a warm credential cache: parse the header, SHA-256 the token, one Map lookup,
// then a Set lookup for the company. Credentials come from BENCH_CREDENTIALS (JSON
// [{token, companies}]), hashed at start as the database would hold them.
import { hashTokenBase64 } from '../../server/domain/tokens.js';

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/;

/** The hello path every reference answers (its company id captured). */
export const HELLO_PATH = /^\/v1\/companies\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})\/hello$/;

/** The token of an `Authorization: Bearer …` header, hashed as the database holds it; undefined for anything else. */
export function bearerTokenHash(header: string | undefined): string | undefined {
  const match = header ? BEARER.exec(header) : null;
  return match ? hashTokenBase64(match[1]!) : undefined;
}

export type BearerOutcome = 'ok' | 'invalid_api_key' | 'forbidden';

/** Authentication and authorization of one company in one go. */
export function bearerCheck(json = process.env.BENCH_CREDENTIALS ?? '[]'): (header: string | undefined, companyId: string) => BearerOutcome {
  const byHash = new Map<string, Set<string>>();
  for (const { token, companies } of JSON.parse(json) as { token: string; companies: string[] }[]) {
    byHash.set(hashTokenBase64(token), new Set(companies));
  }
  return (header, companyId) => {
    const hash = bearerTokenHash(header);
    const companies = hash === undefined ? undefined : byHash.get(hash);
    if (!companies) return 'invalid_api_key';
    return companies.has(companyId) ? 'ok' : 'forbidden';
  };
}

export const statusOf: Record<Exclude<BearerOutcome, 'ok'>, number> = { invalid_api_key: 401, forbidden: 403 };
