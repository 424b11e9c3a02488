// Credentials are opaque random tokens; the service keeps only their SHA-256. A plain
// hash is right here (not a slow password hash): tokens carry 256 bits of entropy, so
// there is nothing to brute-force, and every request must be able to check one cheaply.
import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'plk_';

/** A new token: a recognizable prefix (for secret scanners) and 32 random bytes. */
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
