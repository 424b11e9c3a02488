-- An employment's membership, invitation, linked user, participation and coverage are at
-- most one each (their tables were keyed by employee_id since 001), so they become
-- columns of the employment. Measured at 1M people: assembling a page of 50 people looked
-- each of them up in its own table, five more index descents and heap fetches per
-- employment, about 40% of the cost of a full page. Imports still add them as separate
-- records (server/importing/FORMAT.md); a record for an employment already stored fills
-- its columns, and a second one is refused as before.
ALTER TABLE employees
  ADD COLUMN membership_status        text CHECK (membership_status IN ('active', 'revoked')),
  ADD COLUMN invitation_status        text CHECK (invitation_status IN ('pending', 'accepted', 'revoked')),
  ADD COLUMN invitation_invited_at    timestamptz,
  ADD COLUMN invitation_expires_at    timestamptz,
  ADD COLUMN linked_user_status       text CHECK (linked_user_status IN ('active', 'deactivated')),
  ADD COLUMN has_participation        boolean NOT NULL DEFAULT false,
  ADD COLUMN participation_decision   text CHECK (participation_decision IN ('opt_in', 'opt_out')),
  ADD COLUMN participation_decided_at timestamptz,
  ADD COLUMN coverage_status          text CHECK (coverage_status IN ('enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated')),
  ADD COLUMN coverage_starts_at       timestamptz,
  ADD COLUMN coverage_ends_at         timestamptz,
  ADD COLUMN coverage_plan_tier       text,
  ADD CONSTRAINT employees_invitation_complete CHECK ((invitation_status IS NULL) = (invitation_invited_at IS NULL) AND (invitation_status IS NULL) = (invitation_expires_at IS NULL)),
  ADD CONSTRAINT employees_participation_complete CHECK (has_participation OR (participation_decision IS NULL AND participation_decided_at IS NULL)),
  ADD CONSTRAINT employees_coverage_complete CHECK ((coverage_status IS NULL) = (coverage_starts_at IS NULL));

-- One pass over the employments that have any of these records (five passes, one per
-- table, took 7 minutes at 1.5M employments: each rewrote the rows and their indexes).
UPDATE employees e
   SET membership_status = r.membership_status,
       invitation_status = r.invitation_status, invitation_invited_at = r.invited_at, invitation_expires_at = r.expires_at,
       linked_user_status = r.linked_user_status,
       has_participation = r.has_participation, participation_decision = r.decision, participation_decided_at = r.decided_at,
       coverage_status = r.coverage_status, coverage_starts_at = r.starts_at, coverage_ends_at = r.ends_at, coverage_plan_tier = r.plan_tier
  FROM (SELECT x.id, m.status AS membership_status, i.status AS invitation_status, i.invited_at, i.expires_at,
               u.status AS linked_user_status, p.employee_id IS NOT NULL AS has_participation, p.decision, p.decided_at,
               c.status AS coverage_status, c.starts_at, c.ends_at, c.plan_tier
          FROM employees x
          LEFT JOIN memberships m ON m.employee_id = x.id
          LEFT JOIN invitations i ON i.employee_id = x.id
          LEFT JOIN linked_users u ON u.employee_id = x.id
          LEFT JOIN participations p ON p.employee_id = x.id
          LEFT JOIN coverages c ON c.employee_id = x.id) r
 WHERE r.id = e.id
   AND (r.membership_status IS NOT NULL OR r.invitation_status IS NOT NULL OR r.linked_user_status IS NOT NULL
        OR r.has_participation OR r.coverage_status IS NOT NULL);
DROP TABLE memberships, invitations, linked_users, participations, coverages;
