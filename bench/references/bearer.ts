// The bearer check every hello reference does, the same work as the service's hot path
// with a warm credential cache: parse the header, SHA-256 the token, one Map lookup,
// then a Set lookup for the company. Credentials come from BENCH_CREDENTIALS (JSON
// [{token, companies}]), hashed at start as the database would hold them.
import { hashToken } from '../../server/domain/tokens.js';

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/;

export type BearerOutcome = 'ok' | 'invalid_api_key' | 'forbidden';

export function bearerChecker(json = process.env.BENCH_CREDENTIALS ?? '[]'): (header: string | undefined, companyId: string) => BearerOutcome {
  const byHash = new Map<string, Set<string>>();
  for (const { token, companies } of JSON.parse(json) as { token: string; companies: string[] }[]) {
    byHash.set(hashToken(token).toString('base64'), new Set(companies));
  }
  return (header, companyId) => {
    const match = header ? BEARER.exec(header) : null;
    if (!match) return 'invalid_api_key';
    const companies = byHash.get(hashToken(match[1]!).toString('base64'));
    if (!companies) return 'invalid_api_key';
    return companies.has(companyId) ? 'ok' : 'forbidden';
  };
}

export const statusOf: Record<Exclude<BearerOutcome, 'ok'>, number> = { invalid_api_key: 401, forbidden: 403 };
