-- params: ["co-1",null,null,50,"2024-01-15T08:30:00.123456Z","00000000-0000-4000-8000-000000000077","co-1"]
-- options: {"prepared":true}
WITH 
   bounds AS (
     SELECT $2::timestamptz AS lo, $3::timestamptz AS hi,
            utc_day($2::timestamptz) + CASE WHEN utc_midnight(utc_day($2::timestamptz)) = $2::timestamptz THEN 0 ELSE 1 END AS first_whole,
            utc_day($3::timestamptz) AS end_whole
   ),
   partial_days AS (
     SELECT lo, hi FROM bounds WHERE first_whole >= end_whole AND lo < hi
     UNION ALL
     SELECT lo, utc_midnight(first_whole) FROM bounds WHERE NOT coalesce(first_whole >= end_whole, false) AND lo < utc_midnight(first_whole)
     UNION ALL
     SELECT utc_midnight(end_whole), hi FROM bounds WHERE NOT coalesce(first_whole >= end_whole, false) AND utc_midnight(end_whole) < hi
   ),
   buckets AS (
     SELECT r.day, NULL::timestamptz AS lo, NULL::timestamptz AS hi, r.people
       FROM bounds b JOIN people_by_company_day r ON r.company_id = $7
        AND (b.first_whole IS NULL OR r.day >= b.first_whole) AND (b.end_whole IS NULL OR r.day < b.end_whole)
      WHERE NOT coalesce(b.first_whole >= b.end_whole, false)
     UNION ALL
     SELECT utc_day(d.lo), d.lo, d.hi, (SELECT count(DISTINCT e.person_id)::integer FROM employees e
                                        WHERE e.person_id IS NOT NULL AND e.company_id = $1::text AND e.person_created_at >= d.lo AND e.person_created_at < d.hi)
       FROM partial_days d
   ),
   before AS (
     SELECT coalesce((SELECT sum(people) FROM buckets WHERE day < utc_day($5::timestamptz)), 0)
          + (SELECT count(DISTINCT e.person_id) FROM employees e
              WHERE e.person_id IS NOT NULL AND e.company_id = $1::text AND e.person_created_at >= utc_midnight(utc_day($5::timestamptz)) AND (e.person_created_at, e.person_id) <= ($5::timestamptz, $6::uuid)) AS n
   ),
   running AS (
     SELECT day, lo, hi, people, sum(people) OVER (ORDER BY day) AS through FROM buckets
   ),
   spanned AS (
     SELECT min(coalesce(lo, utc_midnight(day))) AS lo, max(coalesce(hi, utc_midnight(day + 1))) AS hi, min(through - people) AS before_lo
       FROM running WHERE through > (SELECT n FROM before) AND through - people < (SELECT n FROM before) + $4
   ),
   page AS (
     SELECT DISTINCT e.person_created_at AS created_at, e.person_id AS id
       FROM spanned s CROSS JOIN employees e
      WHERE e.person_id IS NOT NULL AND e.company_id = $1::text AND e.person_created_at >= s.lo AND e.person_created_at < s.hi AND (e.person_created_at, e.person_id) > ($5::timestamptz, $6::uuid)
      ORDER BY 1, 2 LIMIT $4
   ),
   total AS (SELECT coalesce(sum(people), 0) AS n FROM buckets)
     SELECT to_char(date_trunc('milliseconds', statement_timestamp()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of, 1 AS ask, (SELECT n FROM total) AS total, (SELECT n FROM before) AS page_offset,
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
           FROM employees e WHERE e.person_id = page.id AND e.company_id = $1::text
       ) p ON true
      ORDER BY page.created_at, page.id
