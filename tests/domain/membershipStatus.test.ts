import { describe, expect, it } from 'vitest';
import { deriveMembershipStatus, type MembershipSources } from '../../server/domain/membershipStatus.js';

const asOf = new Date('2026-01-01T00:00:00Z');
const pending = (expiresAt: string) => ({ status: 'pending' as const, expiresAt: new Date(expiresAt) });
const none: MembershipSources = { membership: null, invitation: null, linkedUser: null };

describe('membership status derivation (first rule that applies wins)', () => {
  it.each<[string, MembershipSources, string]>([
    ['active membership beats everything', { membership: 'active', invitation: pending('2020-01-01T00:00:00Z'), linkedUser: 'deactivated' }, 'active'],
    [
      'revoked membership beats a live invitation',
      { membership: 'revoked', invitation: pending('2030-01-01T00:00:00Z'), linkedUser: 'active' },
      'revoked_access',
    ],
    ['a deactivated user without membership', { ...none, linkedUser: 'deactivated', invitation: pending('2030-01-01T00:00:00Z') }, 'revoked_access'],
    ['a pending invitation expiring after asOf', { ...none, invitation: pending('2026-01-01T00:00:00.001Z') }, 'invited_pending'],
    ['a pending invitation expiring exactly at asOf', { ...none, invitation: pending('2026-01-01T00:00:00Z') }, 'invited_expired'],
    ['a pending invitation expired before asOf', { ...none, invitation: pending('2025-12-31T00:00:00Z') }, 'invited_expired'],
    ['an accepted invitation without membership', { ...none, invitation: { status: 'accepted', expiresAt: new Date('2030-01-01T00:00:00Z') } }, 'not_invited'],
    ['a revoked invitation without membership', { ...none, invitation: { status: 'revoked', expiresAt: new Date('2030-01-01T00:00:00Z') } }, 'not_invited'],
    ['no records at all', none, 'not_invited'],
    ['an active user alone', { ...none, linkedUser: 'active' }, 'not_invited'],
  ])('%s', (_, sources, expected) => {
    expect(deriveMembershipStatus(sources, asOf)).toBe(expected);
  });
});
