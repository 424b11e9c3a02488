// The source records an employment comes with (membership, invitation, linked user,
// participation, coverage), in one of two ways: in realistic shares (the bench, the model
// tests), or each employment the next combination of states, so that even a small dataset
// (the demo) shows every one of them.
import type { Random } from './random.js';

type CoverageStatus = 'enrolled' | 'enrolled_not_paying' | 'awaiting_coverage' | 'waived' | 'terminated';

export interface SourceRecords {
  membership: 'active' | 'revoked' | null;
  invitation: { status: 'pending' | 'accepted' | 'revoked'; invitedAt: number; expiresAt: number } | null;
  linkedUser: 'active' | 'deactivated' | null;
  participation: { decision: 'opt_in' | 'opt_out' | null; decidedAt: number | null } | null;
  coverage: { status: CoverageStatus; startsAt: number; endsAt: number | null; planTier: string | null } | null;
}

/** An instant in [from, to) (or one of the dataset's few instants). */
type Within = (from: number, to: number) => number;

const DAY = 86_400_000;
const planTiers = ['employee_only', 'employee_plus_spouse', 'employee_plus_children', 'family', null];

/** Every state, in realistic shares. */
export function stateShares(random: Random, now: number, within: Within, createdAt: number): SourceRecords {
  const m = random.next();
  const membership = m < 0.45 ? 'active' : m < 0.53 ? 'revoked' : null;

  const k = random.next();
  const invitation = k < 0.25 ? null : invitationOf(now, within, createdAt, k < 0.35 ? 'valid' : k < 0.45 ? 'expired' : k < 0.9 ? 'accepted' : 'revoked');

  const u = random.next();
  const linkedUser = u < 0.2 ? 'active' : u < 0.25 ? 'deactivated' : null;

  const p = random.next();
  const participation: SourceRecords['participation'] =
    p < 0.25 ? null : p < 0.35 ? { decision: null, decidedAt: null } : { decision: p < 0.75 ? 'opt_in' : 'opt_out', decidedAt: within(createdAt, now) };

  const c = random.next();
  let coverage: SourceRecords['coverage'] = null;
  if (c >= 0.15) {
    const status: CoverageStatus = c < 0.6 ? 'enrolled' : c < 0.65 ? 'enrolled_not_paying' : c < 0.75 ? 'awaiting_coverage' : c < 0.9 ? 'waived' : 'terminated';
    coverage = coverageOf(random, now, within, createdAt, status);
  }
  return { membership, invitation, linkedUser, participation, coverage };
}

/** Each employment the next combination of states: their cycles' lengths are coprime enough that a few hundred employments hold every combination. */
export function stateCycle(random: Random, now: number, within: Within): (createdAt: number) => SourceRecords {
  let n = 0;
  return (createdAt) => {
    const i = n++;
    const membership = ([null, 'active', 'revoked', null, null, 'active'] as const)[i % 6]!;
    const kind = (['none', 'valid', 'expired', 'accepted', 'revoked', 'valid', 'accepted'] as const)[i % 7]!;
    const invitation = kind === 'none' ? null : invitationOf(now, within, createdAt, kind);
    const linkedUser = i % 5 === 3 ? (i % 10 === 3 ? 'deactivated' : 'active') : null;
    const decision = ([null, 'opt_in', 'opt_out', 'undecided'] as const)[i % 4]!;
    const participation: SourceRecords['participation'] =
      decision === null ? null : decision === 'undecided' ? { decision: null, decidedAt: null } : { decision, decidedAt: within(createdAt, now) };
    const status = ([null, 'enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated'] as const)[i % 6]!;
    const coverage = status === null ? null : coverageOf(random, now, within, createdAt, status);
    return { membership, invitation, linkedUser, participation, coverage };
  };
}

/** How long an invitation stays valid once sent. */
const VALIDITY = 30 * DAY;
const HOUR = 3_600_000;

/**
 * An invitation of one kind, sent after its employment was created and before the
 * dataset's instant (`now`: an answer's `asOf` is never earlier), expiring after it was
 * sent. A still valid one was sent within the last VALIDITY, so it expires after `now`;
 * an expired one expired before `now` (an invitation sent less than VALIDITY before it
 * was given a shorter validity).
 */
function invitationOf(now: number, within: Within, createdAt: number, kind: 'valid' | 'expired' | 'accepted' | 'revoked'): SourceRecords['invitation'] {
  if (kind === 'valid') {
    const invitedAt = within(Math.max(createdAt, now - VALIDITY + HOUR), now);
    return { status: 'pending', invitedAt, expiresAt: invitedAt + VALIDITY };
  }
  if (kind === 'expired') {
    const invitedAt = within(createdAt, now - DAY);
    return { status: 'pending', invitedAt, expiresAt: Math.min(invitedAt + VALIDITY, now - HOUR) };
  }
  const invitedAt = within(createdAt, now);
  return { status: kind, invitedAt, expiresAt: invitedAt + VALIDITY };
}

/** Coverage that starts after its employment was created (perhaps after `now`: awaiting) and, if it ends, ends after it starts. */
function coverageOf(random: Random, now: number, within: Within, createdAt: number, status: CoverageStatus): SourceRecords['coverage'] {
  const startsAt = within(createdAt, now + 30 * DAY);
  return {
    status,
    startsAt,
    endsAt: status === 'terminated' ? within(startsAt + DAY, now + 60 * DAY) : null,
    planTier: random.pick(planTiers),
  };
}
