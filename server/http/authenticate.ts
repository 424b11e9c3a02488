// Bearer authentication: the token's SHA-256 is looked up in a short-lived cache, then
// in the database. Only hashes are kept, in memory as in the database; a revoked
// credential stops working once its cache entry expires (CREDENTIAL_CACHE_MS), and an
// expiry or the end of a rotation's overlap bites on time, cached or not.
//
// Where the lookups read from replicas (decision 0016), what a replica does not know yet
// is asked of the primary before it is refused: a token it does not know (before a 401),
// and, through Credential.recheck, a company its copy of a credential lacks (before a
// 403). The primary's answer is cached like any other, a miss too, and at most
// CONFIRMATIONS_PER_SECOND questions of each kind leave an instance: a flood of bad tokens
// cannot reach the primary.
import type { LastUseRecorder } from '../access/lastUse.js';
import type { ActiveCredentials, Credential, CredentialConfirmation } from '../domain/credentials.js';
import { hashTokenBase64 } from '../domain/tokens.js';
import { ApiError, ServiceUnavailable } from '../errors.js';
import { withDeadline } from './deadline.js';

// The scheme name is case-insensitive (RFC 7235 §2.1); the token is taken as sent.
const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/i;
const CACHE_LIMIT = 10_000;
/**
 * Questions to the primary per second and instance, each kind a token bucket of as many:
 * tokens a replica does not know (past the budget, 503: the token was not checked, so it
 * is not called invalid), and companies a credential lacks (past the budget, the copy's
 * answer stands). Apart, so that neither starves the other.
 */
export const CONFIRMATIONS_PER_SECOND = 20;

export class Authenticator {
  private readonly cache = new Map<string, { credential: Credential | undefined; expires: number }>();

  constructor(
    private readonly credentials: ActiveCredentials,
    private readonly cacheMs: number,
    /** See deadline.ts; 0 for none. */
    private readonly deadlineMs = 0,
    private readonly lastUse?: LastUseRecorder,
    /** Where credential changes arrive first, when lookups read from replicas. */
    private readonly primary?: CredentialConfirmation,
  ) {}

  private readonly unknownTokens = new Budget(CONFIRMATIONS_PER_SECOND);
  private readonly rechecks = new Budget(CONFIRMATIONS_PER_SECOND);

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
    let credential = await withDeadline(this.credentials.findActive(hash), this.deadlineMs);
    // Created or rotated a moment ago, the token may not have reached the replica yet.
    if (!credential && this.primary?.available()) {
      if (!this.unknownTokens.take(now)) throw new ServiceUnavailable('too many unknown tokens to confirm on the primary');
      credential = await this.confirm(hash);
    }
    return this.admit(this.cached(key, hash, credential, now), now);
  }

  /** Caches what a lookup found; where lookups read from replicas, with the means to ask the primary again. */
  private cached(key: string, hash: Buffer, credential: Credential | undefined, now: number): Credential | undefined {
    if (credential && this.primary) credential.recheck = () => this.recheck(credential, hash, key);
    if (this.cacheMs > 0) this.remember(key, { credential, expires: now + this.cacheMs });
    return credential;
  }

  /**
   * The credential as the primary has it now, cached in place of the copy. The copy itself
   * where the primary cannot say (it is down, or failed to answer) or the budget is spent:
   * its 403 is then the replica's, as it would be without the question. Not throttled per
   * credential: a grant made after a 403 shows on the next request.
   */
  private async recheck(copy: Credential, hash: Buffer, key: string): Promise<Credential | undefined> {
    const now = Date.now();
    if (!this.primary!.available() || !this.rechecks.take(now)) return copy;
    let current: Credential | undefined;
    try {
      current = await this.confirm(hash);
    } catch {
      return copy;
    }
    return this.cached(key, hash, current, now);
  }

  private confirm(hash: Buffer): Promise<Credential | undefined> {
    return withDeadline(this.primary!.findActive(hash), this.deadlineMs);
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

/** A token bucket: `perSecond` takes a second, refilled continuously. */
class Budget {
  private left: number;
  private refilled = 0;

  constructor(private readonly perSecond: number) {
    this.left = perSecond;
  }

  take(now: number): boolean {
    this.left = Math.min(this.perSecond, this.left + ((now - this.refilled) * this.perSecond) / 1000);
    this.refilled = now;
    if (this.left < 1) return false;
    this.left--;
    return true;
  }
}

const unauthorized = () => new ApiError('invalid_api_key', undefined, { 'WWW-Authenticate': 'Bearer' });
