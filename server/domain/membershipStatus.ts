// membership.status is derived from three source records; see the Membership schema in
// the contract and docs/decisions/0008-membership-status.md. The first rule that applies wins.
import type { components } from '../../generated/types.full.js';

export type MembershipStatus = components['schemas']['Membership']['status'];

export interface MembershipSources {
  membership: 'active' | 'revoked' | null;
  invitation: { status: 'pending' | 'accepted' | 'revoked'; expiresAt: Date } | null;
  linkedUser: 'active' | 'deactivated' | null;
}

export function deriveMembershipStatus(sources: MembershipSources, asOf: Date): MembershipStatus {
  if (sources.membership === 'active') return 'active';
  if (sources.membership === 'revoked') return 'revoked_access';
  if (sources.linkedUser === 'deactivated') return 'revoked_access';
  if (sources.invitation?.status === 'pending') {
    return sources.invitation.expiresAt.getTime() > asOf.getTime() ? 'invited_pending' : 'invited_expired';
  }
  return 'not_invited';
}
