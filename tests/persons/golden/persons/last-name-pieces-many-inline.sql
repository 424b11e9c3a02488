-- params: [["co-1","co-2","co-3","co-4","co-5","co-6","co-7","co-8","co-9","co-10","co-11","co-12","co-13","co-14","co-15","co-16","co-17","co-18","co-19","co-20","co-21","co-22","co-23","co-24","co-25","co-26","co-27","co-28","co-29","co-30","co-31","co-32","co-33","co-34","co-35","co-36","co-37","co-38","co-39","co-40","co-41","co-42","co-43","co-44","co-45","co-46","co-47","co-48","co-49","co-50","co-51","co-52","co-53","co-54","co-55","co-56","co-57","co-58","co-59","co-60","co-61","co-62","co-63","co-64","co-65","co-66","co-67","co-68","co-69","co-70","co-71","co-72","co-73","co-74","co-75","co-76","co-77","co-78","co-79","co-80","co-81","co-82","co-83","co-84","co-85","co-86","co-87","co-88","co-89","co-90","co-91","co-92","co-93","co-94","co-95","co-96","co-97","co-98","co-99","co-100","co-101","co-102","co-103","co-104","co-105","co-106","co-107","co-108","co-109","co-110","co-111","co-112","co-113","co-114","co-115","co-116","co-117","co-118","co-119","co-120","co-121","co-122","co-123","co-124","co-125","co-126","co-127","co-128","co-129","co-130","co-131","co-132","co-133","co-134","co-135","co-136","co-137","co-138","co-139","co-140","co-141","co-142","co-143","co-144","co-145","co-146","co-147","co-148","co-149","co-150"],"dur","%durand%",50,0]
-- options: {"prepared":true}
WITH 
     page AS MATERIALIZED (
       SELECT created_at, id, count(*) OVER () AS n
         FROM (SELECT DISTINCT e.person_created_at AS created_at, e.person_id AS id FROM last_name_pieces e WHERE e.person_id IS NOT NULL AND e.company_id = ANY($1::text[]) AND e.piece = $2 AND e.last_name_folded LIKE $3 ORDER BY 1, 2) m
        ORDER BY created_at, id LIMIT $4 OFFSET $5
     ),
     total AS (SELECT coalesce((SELECT n FROM page LIMIT 1), (SELECT count(*) FROM (SELECT DISTINCT e.person_created_at AS created_at, e.person_id AS id FROM last_name_pieces e WHERE e.person_id IS NOT NULL AND e.company_id = ANY($1::text[]) AND e.piece = $2 AND e.last_name_folded LIKE $3) m)) AS n)
     SELECT to_char(date_trunc('milliseconds', statement_timestamp()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of, 1 AS ask, (SELECT n FROM total) AS total, $5::int8 AS page_offset,
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
           FROM employees e WHERE e.person_id = page.id AND e.company_id = ANY($1::text[])
       ) p ON true
      ORDER BY page.created_at, page.id
