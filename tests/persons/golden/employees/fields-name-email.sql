-- params: [["co-1","co-2","co-3"],50,0]
-- options: {"prepared":true}
WITH page AS MATERIALIZED (
       SELECT e.created_at, e.id FROM employees e WHERE e.person_id IS NULL AND e.company_id = ANY($1::text[])
        ORDER BY e.created_at, e.id LIMIT $2 OFFSET $3
     ),
     total AS (SELECT count(*) AS n FROM employees e WHERE e.person_id IS NULL AND e.company_id = ANY($1::text[]))
     SELECT to_char(date_trunc('milliseconds', statement_timestamp()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of, 1 AS ask, (SELECT n FROM total) AS total, $3::int8 AS page_offset,
            page.id AS item_id, to_char(page.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_at,
            CASE WHEN page.id IS NOT NULL THEN json_build_object(
    'id', e.id,
    'companyId', e.company_id,
    'personId', e.person_id,
    'demographics', json_build_object('firstName', e.first_name, 'lastName', e.last_name),
    'contact', json_build_object('email', e.email),
    'createdAt', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text END AS item
       FROM (SELECT 1) AS always
       LEFT JOIN page ON true
       LEFT JOIN employees e ON e.id = page.id
      ORDER BY page.created_at, page.id
