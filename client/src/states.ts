// The states an employment's records can be in, as types and as values (a filter's options,
// a legend, an exhaustive map from state to label). The compiler holds each list equal to
// the contract's enum (values.ts).
import type { components } from '../../generated/types.full.js';
import { valuesOf } from './values.js';

type Schemas = components['schemas'];
export type MembershipStatus = Schemas['Membership']['status'];
export type InvitationStatus = Schemas['Invitation']['status'];
export type CoverageStatus = Schemas['Coverage']['status'];
/** An employee's decision; `participation.decision` is null while undecided. */
export type ParticipationDecision = NonNullable<Schemas['Participation']['decision']>;

export const membershipStatuses = valuesOf<MembershipStatus>()(['not_invited', 'invited_pending', 'invited_expired', 'active', 'revoked_access']);
export const invitationStatuses = valuesOf<InvitationStatus>()(['pending', 'accepted', 'revoked']);
export const coverageStatuses = valuesOf<CoverageStatus>()(['enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated']);
export const participationDecisions = valuesOf<ParticipationDecision>()(['opt_in', 'opt_out']);
