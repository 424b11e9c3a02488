// Bearer authentication: the token's SHA-256 is looked up in a short-lived cache, then
// in the database. Only hashes are kept, in memory as in the database; a revoked
// credential stops working once its cache entry expires (CREDENTIAL_CACHE_MS), and an
// expiry or the end of a rotation's overlap bites on time, cached or not.
import type { LastUseRecorder } from '../access/lastUse.js';
import type { ActiveCredentials, Credential } from '../domain/credentials.js';
import { hashTokenBase64 } from '../domain/tokens.js';
import { ApiError } from '../errors.js';
import { withDeadline } from './deadline.js';

// The scheme name is case-insensitive (RFC 7235 §2.1); the token is taken as sent.
const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/i;
const CACHE_LIMIT = 10_000;

export class Authenticator {
  private readonly cache = new Map<string, { credential: Credential | undefined; expires: number }>();

  constructor(
    private readonly credentials: ActiveCredentials,
    private readonly cacheMs: number,
    /** See deadline.ts; 0 for none. */
    private readonly deadlineMs = 0,
    private readonly lastUse?: LastUseRecorder,
  ) {}

  /**
   * The credential behind an Authorization header, or ApiError invalid_api_key. A cached
   * credential is answered at once (a value, or a throw), a lookup as a promise. `now` is
   * the request's clock reading.
   */
  authenticate(header: string | undefined, now = Date.now()): Credential | Promise<Credential> {
    const match = header ? BEARER.exec(header) : null;
    if (!match) throw unauthorized();
    const key = hashTokenBase64(match[1]!);
    const entry = this.cache.get(key);
    if (entry && entry.expires > now) return this.admit(entry.credential, now);
    return this.lookUp(Buffer.from(key, 'base64'), key, now);
  }

  private async lookUp(hash: Buffer, key: string, now: number): Promise<Credential> {
    const entry = { credential: await withDeadline(this.credentials.findActive(hash), this.deadlineMs), expires: now + this.cacheMs };
    if (this.cacheMs > 0) this.remember(key, entry);
    return this.admit(entry.credential, now);
  }

  private admit(credential: Credential | undefined, now: number): Credential {
    if (!credential || (credential.validUntil !== undefined && credential.validUntil <= now)) throw unauthorized();
    this.lastUse?.record(credential, now);
    return credential;
  }

  private remember(key: string, entry: { credential: Credential | undefined; expires: number }) {
    // Bounded: random unknown tokens must not grow memory without limit.
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, entry);
  }
}

const unauthorized = () => new ApiError('invalid_api_key', undefined, { 'WWW-Authenticate': 'Bearer' });
