// membership.status is derived in the person query's SQL (server/db/reads/employeeJson.ts) by the
// rules server/domain/membershipStatus.ts states. Both must agree on every combination of
// source records, with the invitation expiring before, exactly at, or after asOf.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_OF, iso, membershipStatusSql } from '../../server/db/reads/employeeJson.js';
import { deriveMembershipStatus, type MembershipSources } from '../../server/domain/membershipStatus.js';
import { engines, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

const memberships = [null, 'active', 'revoked'] as const;
const invitations = [null, 'pending', 'accepted', 'revoked'] as const;
const linkedUsers = [null, 'active', 'deactivated'] as const;
/** The expiry relative to asOf, in milliseconds (0: exactly at asOf; 0.4: within its millisecond). */
const expiries = [-86_400_000, -1, 0, 0.4, 1, 86_400_000];

describe.each(engines)('membership status in SQL on %s', (engine) => {
  let database: ThrowawayDatabase;
  beforeAll(async () => {
    database = await throwawayDatabase(engine, { migrate: false });
  });
  afterAll(() => database?.drop());

  it('agrees with deriveMembershipStatus on every combination of records', async () => {
    const cases = memberships.flatMap((membership) =>
      linkedUsers.flatMap((linkedUser) =>
        invitations.flatMap((invitation) => (invitation === null ? [0] : expiries).map((expiry) => ({ membership, linkedUser, invitation, expiry }))),
      ),
    );
    const rows = await database.db.query<{ as_of: string; statuses: string[] }>(
      `SELECT ${iso(AS_OF)} AS as_of,
              array_agg(${membershipStatusSql('e')} ORDER BY e.n) AS statuses
         FROM (SELECT c.n, c.membership_status, c.invitation_status, c.linked_user_status,
                      date_trunc('milliseconds', statement_timestamp()) + c.expiry * interval '1 millisecond' AS invitation_expires_at
                 FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[]) WITH ORDINALITY
                      AS c(membership_status, invitation_status, linked_user_status, expiry, n)) e`,
      [cases.map((c) => c.membership), cases.map((c) => c.invitation), cases.map((c) => c.linkedUser), cases.map((c) => c.expiry)],
    );
    const asOf = new Date(rows[0]!.as_of);
    const expected = cases.map((c) => {
      const sources: MembershipSources = {
        membership: c.membership,
        linkedUser: c.linkedUser,
        // The contract shows the expiry in milliseconds, as the status compares it.
        invitation: c.invitation === null ? null : { status: c.invitation, expiresAt: new Date(asOf.getTime() + Math.floor(c.expiry)) },
      };
      return deriveMembershipStatus(sources, asOf);
    });
    expect(rows[0]!.statuses).toEqual(expected);
    expect(new Set(expected).size).toBe(5);
  });
});
