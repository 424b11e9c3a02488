-- params: ["00000000-0000-4000-8000-0000000000c1","00000000-0000-4000-8000-0000000000c1","dur","%durand%",50,0]
-- options: {"prepared":true}
WITH 
     outside AS MATERIALIZED (SELECT c.id FROM companies c WHERE NOT EXISTS (SELECT FROM credential_companies cc WHERE cc.credential_id = $2::uuid AND cc.company_id = c.id)),
     page AS MATERIALIZED (SELECT DISTINCT e.person_created_at AS created_at, e.person_id AS id FROM last_name_pieces e WHERE e.person_id IS NOT NULL AND e.company_id NOT IN (SELECT id FROM outside) AND e.piece COLLATE "POSIX" = $3 AND e.last_name_folded LIKE $4 ORDER BY 1, 2 LIMIT $5 OFFSET $6),
     total AS (SELECT count(*) AS n FROM (SELECT DISTINCT e.person_created_at AS created_at, e.person_id AS id FROM last_name_pieces e WHERE e.person_id IS NOT NULL AND e.company_id NOT IN (SELECT id FROM outside) AND e.piece COLLATE "POSIX" = $3 AND e.last_name_folded LIKE $4) m)
     SELECT to_char(date_trunc('milliseconds', statement_timestamp()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of, 1 AS ask, (SELECT n FROM total) AS total, $6::int8 AS page_offset,
            page.id AS item_id, to_char(page.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_at,
            CASE WHEN page.id IS NOT NULL THEN
              json_build_object('id', page.id, 'employments', p.employments, 'createdAt', to_char(page.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', p.updated_at)::text
            END AS item
       FROM (SELECT 1) AS always
       LEFT JOIN page ON true
       LEFT JOIN LATERAL (
         SELECT json_agg(json_build_object(
    'id', e.id,
    'companyId', e.company_id,
    'personId', e.person_id,
    'externalIds', e.external_ids,
    'demographics', json_build_object('firstName', e.first_name, 'lastName', e.last_name, 'dateOfBirth', e.date_of_birth, 'gender', e.gender),
    'contact', json_build_object('email', e.email, 'phone', e.phone, 'address', json_build_object('line1', e.address_line1, 'line2', e.address_line2, 'city', e.city, 'state', e.state, 'postalCode', e.postal_code)),
    'membership', json_build_object('status', CASE WHEN e.membership_status = 'active' THEN 'active'
               WHEN e.membership_status = 'revoked' OR e.linked_user_status = 'deactivated' THEN 'revoked_access'
               WHEN e.invitation_status = 'pending' AND date_trunc('milliseconds', e.invitation_expires_at) > date_trunc('milliseconds', statement_timestamp()) THEN 'invited_pending'
               WHEN e.invitation_status = 'pending' THEN 'invited_expired'
               ELSE 'not_invited' END, 'invitation', CASE WHEN e.invitation_status IS NOT NULL THEN json_build_object('status', e.invitation_status, 'invitedAt', to_char(e.invitation_invited_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'expiresAt', to_char(e.invitation_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END),
    'participation', CASE WHEN e.has_participation THEN json_build_object('decision', e.participation_decision, 'decidedAt', to_char(e.participation_decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
    'coverage', CASE WHEN e.coverage_status IS NOT NULL THEN json_build_object('status', e.coverage_status, 'startsAt', to_char(e.coverage_starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'endsAt', to_char(e.coverage_ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'planTier', e.coverage_plan_tier) END,
    'createdAt', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY e.created_at, e.id) AS employments,
                to_char(max(e.person_updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
           FROM employees e JOIN credential_companies ecc ON ecc.credential_id = $1::uuid AND ecc.company_id = e.company_id WHERE e.person_id = page.id
       ) p ON true
      ORDER BY page.created_at, page.id
