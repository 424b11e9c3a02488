// What `npm run credentials -- list` prints of each credential: what it is, what it reads
// and why, and its lifecycle. Never a token or its hash.
import type { CredentialSummary } from '../db/stores/credentials.js';
import { purposeNeedsReview } from '../domain/credentials.js';
import { formatDuration } from '../domain/durations.js';
import { formatFieldSet } from '../domain/fieldGroups.js';

/** A credential that still carries the purpose the migration gave it, and can still be used (a revoked one opens nothing). */
export const toReview = (c: CredentialSummary): boolean => purposeNeedsReview(c.purpose) && !c.revokedAt;

/** Three lines per credential: what it is, what it reads and why, then its lifecycle. */
export function describeCredential(c: CredentialSummary, now = Date.now()): string {
  const at = (d: Date | null) => (d ? d.toISOString() : 'never');
  const state = c.revokedAt
    ? `revoked ${c.revokedAt.toISOString()}`
    : c.expiresAt && c.expiresAt.getTime() <= now
      ? `expired ${c.expiresAt.toISOString()}`
      : 'active';
  const expiry = c.expiresAt ? (c.expiresAt.getTime() <= now ? `expired ${at(c.expiresAt)}` : `expires ${at(c.expiresAt)}`) : 'no expiry';
  // A revoked or expired credential opens nothing: a previous token's overlap is moot.
  let overlap = state === 'active' ? 'no rotation overlap' : '';
  if (c.previousTokenValidUntil && state === 'active') {
    overlap =
      c.previousTokenValidUntil.getTime() > now
        ? `previous token valid until ${at(c.previousTokenValidUntil)} (${formatDuration(c.previousTokenValidUntil.getTime() - now)} left), last used ${at(c.previousTokenLastUsedAt)}`
        : `rotation overlap ended ${at(c.previousTokenValidUntil)}`;
  }
  return [
    `${c.id}  ${state.padEnd(32)}  ${c.name}  [${c.companies.join(', ')}]`,
    `    reads ${formatFieldSet(c.fields)}; purpose: ${c.purpose}${toReview(c) ? '  <- review: set-purpose, set-fields' : ''}`,
    `    created ${at(c.createdAt)}, last used ${at(c.lastUsedAt)}, ${[expiry, overlap].filter(Boolean).join(', ')}`,
  ].join('\n');
}

/** The list's last line when credentials created before purposes are still in use; undefined when none is. */
export function reviewReminder(credentials: readonly CredentialSummary[]): string | undefined {
  const n = credentials.filter(toReview).length;
  if (!n) return undefined;
  return (
    `to review: ${n} credential${n === 1 ? '' : 's'} created before purposes: ` +
    'give each its purpose (set-purpose) and only the field groups it needs (set-fields)'
  );
}
