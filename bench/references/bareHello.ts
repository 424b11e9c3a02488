// Reference: hello on a bare node:http handler, this machine's limit for an authenticated JSON
// answer: one regex, the service's bearer check with a warm cache (SHA-256, a Map and a Set
// lookup), JSON.stringify. BENCH_CREDENTIALS: [{token, companies}].
import { createServer } from 'node:http';
import { hashTokenBase64 } from '../../server/domain/tokens.js';
import { bearerTokenHash, HELLO_PATH } from './bearer.js';

type BearerOutcome = 'ok' | 'invalid_api_key' | 'forbidden';
const statusOf: Record<Exclude<BearerOutcome, 'ok'>, number> = { invalid_api_key: 401, forbidden: 403 };
const byHash = new Map<string, Set<string>>();
for (const { token, companies } of JSON.parse(process.env.BENCH_CREDENTIALS ?? '[]') as { token: string; companies: string[] }[]) {
  byHash.set(hashTokenBase64(token), new Set(companies));
}

/** Authentication and authorization of one company in one go. */
function check(header: string | undefined, companyId: string): BearerOutcome {
  const hash = bearerTokenHash(header);
  const companies = hash === undefined ? undefined : byHash.get(hash);
  if (!companies) return 'invalid_api_key';
  return companies.has(companyId) ? 'ok' : 'forbidden';
}

createServer((req, res) => {
  const match = req.method === 'GET' ? HELLO_PATH.exec(req.url ?? '') : null;
  let status = 404;
  let body: object = { error: 'not_found' };
  if (match) {
    const outcome = check(req.headers.authorization, match[1]!);
    if (outcome === 'ok') [status, body] = [200, { message: `Hello, ${match[1]}!` }];
    else [status, body] = [statusOf[outcome], { error: outcome }];
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}).listen(Number(process.env.PORT), '127.0.0.1');
