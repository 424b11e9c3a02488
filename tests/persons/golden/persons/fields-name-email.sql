-- params: [["co-1","co-2"],"dur","%durand%",50,0]
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
    'demographics', json_build_object('firstName', e.first_name, 'lastName', e.last_name),
    'contact', json_build_object('email', e.email),
    'createdAt', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY e.created_at, e.id) AS employments,
                to_char(max(e.person_updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
           FROM employees e WHERE e.person_id = page.id AND e.company_id = ANY($1::text[])
       ) p ON true
      ORDER BY page.created_at, page.id
