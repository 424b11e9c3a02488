// The contract's Person and Employee objects (components/schemas), built by PostgreSQL as
// JSON text in the person query itself: the service sends that text untouched instead of
// parsing rows, building objects and serializing them again. Contract validation of every
// response in the tests keeps this shape honest.

/** An instant as the contract writes it, e.g. 2024-03-01T09:30:00.000Z (as Date.toISOString would); NULL stays NULL. */
export const iso = (instant: string) => `to_char(${instant} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The instant of the statement's snapshot as `asOf` shows it (milliseconds): what the
 * response, the membership status and the access audit entry all refer to. On a replica
 * the statement reads the primary's heartbeat instead (heartbeat.ts replaces this text).
 */
export const AS_OF = `date_trunc('milliseconds', statement_timestamp())`;

/**
 * membership.status, by the rules of server/domain/membershipStatus.ts (the first that
 * applies wins), as of `asOf`; the expiry is compared as shown, in milliseconds.
 * tests/persons/membershipStatusSql.test.ts checks both agree on every combination.
 */
export function membershipStatusSql(e: string): string {
  return `CASE WHEN ${e}.membership_status = 'active' THEN 'active'
               WHEN ${e}.membership_status = 'revoked' OR ${e}.linked_user_status = 'deactivated' THEN 'revoked_access'
               WHEN ${e}.invitation_status = 'pending' AND date_trunc('milliseconds', ${e}.invitation_expires_at) > ${AS_OF} THEN 'invited_pending'
               WHEN ${e}.invitation_status = 'pending' THEN 'invited_expired'
               ELSE 'not_invited' END`;
}

/**
 * One employment `e` as an Employee. `systems` is the placeholder of the external systems
 * to show (a text[]), or undefined to show every external id (stored in the contract's
 * order, server/db/employmentColumns.ts).
 */
export function employeeJson(e: string, systems?: string): string {
  const externalIds =
    systems === undefined
      ? `${e}.external_ids`
      : `(SELECT coalesce(jsonb_agg(x.id ORDER BY x.n), '[]') FROM jsonb_array_elements(${e}.external_ids) WITH ORDINALITY AS x(id, n)
           WHERE x.id->>'system' = ANY (${systems}::text[]))`;
  return `json_build_object(
    'id', ${e}.id, 'companyId', ${e}.company_id, 'personId', ${e}.person_id, 'externalIds', ${externalIds},
    'demographics', json_build_object('firstName', ${e}.first_name, 'lastName', ${e}.last_name, 'dateOfBirth', ${e}.date_of_birth, 'gender', ${e}.gender),
    'contact', json_build_object('email', ${e}.email, 'phone', ${e}.phone,
      'address', json_build_object('line1', ${e}.address_line1, 'line2', ${e}.address_line2, 'city', ${e}.city, 'state', ${e}.state, 'postalCode', ${e}.postal_code)),
    'membership', json_build_object('status', ${membershipStatusSql(e)},
      'invitation', CASE WHEN ${e}.invitation_status IS NOT NULL THEN json_build_object('status', ${e}.invitation_status,
                      'invitedAt', ${iso(`${e}.invitation_invited_at`)}, 'expiresAt', ${iso(`${e}.invitation_expires_at`)}) END),
    'participation', CASE WHEN ${e}.has_participation THEN json_build_object('decision', ${e}.participation_decision,
                      'decidedAt', ${iso(`${e}.participation_decided_at`)}) END,
    'coverage', CASE WHEN ${e}.coverage_status IS NOT NULL THEN json_build_object('status', ${e}.coverage_status,
                  'startsAt', ${iso(`${e}.coverage_starts_at`)}, 'endsAt', ${iso(`${e}.coverage_ends_at`)}, 'planTier', ${e}.coverage_plan_tier) END,
    'createdAt', ${iso(`${e}.created_at`)}, 'updatedAt', ${iso(`${e}.updated_at`)})`;
}
