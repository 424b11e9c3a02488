-- params: ["co-1",null,null,50,0,"co-1","00000000-0000-4000-8000-0000000000c1","searchPersons","tests",[]]
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
       FROM bounds b JOIN people_by_company_day r ON r.company_id = $6
        AND (b.first_whole IS NULL OR r.day >= b.first_whole) AND (b.end_whole IS NULL OR r.day < b.end_whole)
      WHERE NOT coalesce(b.first_whole >= b.end_whole, false)
     UNION ALL
     SELECT utc_day(d.lo), d.lo, d.hi, (SELECT count(DISTINCT e.person_id)::integer FROM employees e
                                        WHERE e.person_id IS NOT NULL AND e.company_id = $1::text AND e.person_created_at >= d.lo AND e.person_created_at < d.hi)
       FROM partial_days d
   ),
   running AS (
     SELECT day, lo, hi, people, sum(people) OVER (ORDER BY day) AS through FROM buckets
   ),
   spanned AS (
     SELECT min(coalesce(lo, utc_midnight(day))) AS lo, max(coalesce(hi, utc_midnight(day + 1))) AS hi, min(through - people) AS before_lo
       FROM running WHERE through > $5 AND through - people < $5 + $4
   ),
   page AS (
     SELECT DISTINCT e.person_created_at AS created_at, e.person_id AS id
       FROM spanned s CROSS JOIN employees e
      WHERE e.person_id IS NOT NULL AND e.company_id = $1::text AND e.person_created_at >= s.lo AND e.person_created_at < s.hi
      ORDER BY 1, 2 LIMIT $4 OFFSET (SELECT $5 - before_lo FROM spanned)
   ),
   total AS (SELECT coalesce(sum(people), 0) AS n FROM buckets), audited AS (
       INSERT INTO access_audit (at, credential_id, operation, purpose, fields, person_ids, not_found_person_id)
       SELECT date_trunc('milliseconds', statement_timestamp()), $7::uuid, $8, $9, $10::text[],
              ARRAY(SELECT id FROM page ORDER BY created_at, id),
              NULL
       
     )
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
    'demographics', json_build_object(),
    'contact', json_build_object(),
    'createdAt', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY e.created_at, e.id) AS employments,
                to_char(max(e.person_updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
           FROM employees e WHERE e.person_id = page.id AND e.company_id = $1::text
       ) p ON true
      ORDER BY page.created_at, page.id
