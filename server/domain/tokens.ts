// Credentials are opaque random tokens; the service keeps only their SHA-256. A plain
// hash is right here (not a slow password hash): tokens carry 256 bits of entropy, so
// there is nothing to brute-force, and every request must be able to check one cheaply.
import { hash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'plk_';

/** A new token: a recognizable prefix (for secret scanners) and 32 random bytes. */
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

// crypto.hash is the one-shot form: no Hash object per call.
export function hashToken(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}

/** The same hash as base64 text, the form an in-memory cache keys by, in one call. */
export function hashTokenBase64(token: string): string {
  return hash('sha256', token, 'base64');
}
