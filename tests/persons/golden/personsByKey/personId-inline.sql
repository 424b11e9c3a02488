-- params: [["co-1","co-2","co-3"],["a","b"],[50,1],[0,3]]
-- options: {"prepared":true}
SELECT to_char(date_trunc('milliseconds', statement_timestamp()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of, found.ask AS ask, found.total AS total, found.page_offset AS page_offset,
            found.person_id AS item_id, to_char(found.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_at,
            found.person AS item
       FROM (SELECT 1) AS always
       LEFT JOIN (
         SELECT r.ask, r.n, r.total, r.page_offset, r.created_at, r.id::text AS person_id,
                CASE WHEN r.n > r.page_offset AND r.n - r.page_offset <= r.page_limit THEN
                  json_build_object('id', r.id, 'employments', p.employments, 'createdAt', to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', p.updated_at)::text
                END AS person
           FROM (
             SELECT m.*, count(*) OVER (PARTITION BY m.ask) AS total,
                    row_number() OVER (PARTITION BY m.ask ORDER BY m.created_at, m.id) AS n
               FROM (
                 SELECT DISTINCT a.ask, a.page_limit, a.page_offset, e.person_created_at AS created_at, e.person_id AS id
                   FROM unnest($2::text[], $3::int8[], $4::int8[]) WITH ORDINALITY AS a(value, page_limit, page_offset, ask)
                   CROSS JOIN LATERAL (
                     SELECT e.person_created_at, e.person_id
                       FROM employees e
                      WHERE e.person_id IS NOT NULL AND e.person_id = a.value::uuid AND e.company_id = ANY($1::text[])
                     OFFSET 0
                   ) e
               ) m
           ) r
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
               FROM employees e WHERE e.person_id = r.id AND e.company_id = ANY($1::text[]) AND r.n > r.page_offset AND r.n - r.page_offset <= r.page_limit
           ) p ON true
          WHERE r.n > r.page_offset AND r.n - r.page_offset <= r.page_limit OR r.n = 1
       ) AS found ON true
      ORDER BY found.ask, found.n
