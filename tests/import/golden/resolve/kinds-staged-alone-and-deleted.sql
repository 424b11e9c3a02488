-- params: []

    CREATE TEMP TABLE import_company_outcomes ON COMMIT DROP AS
    WITH events AS (
      SELECT id, line, false AS deleting, name FROM import_companies
      UNION ALL SELECT id, line, true, NULL FROM import_deletes WHERE record = 'company'
    ), last AS (SELECT DISTINCT ON (id) * FROM events ORDER BY id, line DESC)
    SELECT l.id, l.line, l.deleting, l.name, c.id IS NOT NULL AS stored,
           
  CASE WHEN NOT (NOT l.deleting) THEN CASE WHEN c.id IS NOT NULL THEN 'deleted' WHEN l.deleting THEN 'already_absent' END
       WHEN NOT (c.id IS NOT NULL) THEN 'added'
       WHEN c.name IS DISTINCT FROM l.name THEN 'changed' ELSE 'unchanged' END AS outcome
      FROM last l LEFT JOIN companies c ON c.id = l.id

-- next statement
-- params: []

    CREATE TEMP TABLE import_person_outcomes ON COMMIT DROP AS
    WITH events AS (
      SELECT id, line, false AS deleting, created_at, updated_at FROM import_persons
      UNION ALL SELECT id::uuid, line, true, NULL, NULL FROM import_deletes WHERE record = 'person'
    ), last AS (SELECT DISTINCT ON (id) * FROM events ORDER BY id, line DESC)
    SELECT l.id, l.line, l.deleting, l.created_at, l.updated_at, p.id IS NOT NULL AS stored,
           
  CASE WHEN NOT (NOT l.deleting) THEN CASE WHEN p.id IS NOT NULL THEN 'deleted' WHEN l.deleting THEN 'already_absent' END
       WHEN NOT (p.id IS NOT NULL) THEN 'added'
       WHEN (p.created_at, p.updated_at) IS DISTINCT FROM (l.created_at, l.updated_at) THEN 'changed' ELSE 'unchanged' END AS outcome
      FROM last l LEFT JOIN LATERAL (SELECT * FROM persons p WHERE p.id = l.id OFFSET 0) p ON true

-- next statement
-- params: []

    SELECT coalesce(e.employee_rows, 0)::float8 AS employee_rows, coalesce(e.one_each, true) AS one_each,
           ARRAY(SELECT DISTINCT record FROM import_deletes) AS deletes,
           ARRAY[CASE WHEN EXISTS (SELECT 1 FROM import_membership_records) THEN 'membership' END, CASE WHEN EXISTS (SELECT 1 FROM import_invitation_records) THEN 'invitation' END, CASE WHEN EXISTS (SELECT 1 FROM import_linkeduser_records) THEN 'linkedUser' END, CASE WHEN EXISTS (SELECT 1 FROM import_participation_records) THEN 'participation' END, CASE WHEN EXISTS (SELECT 1 FROM import_coverage_records) THEN 'coverage' END] AS kind_tables
      FROM (SELECT sum(n) AS employee_rows, bool_and(n = 1) AS one_each FROM (SELECT count(*) AS n FROM import_employees GROUP BY id) g) e

-- next statement
-- params: []
SET LOCAL enable_mergejoin = off

-- next statement
-- params: [[],["membership","invitation","linkedUser","participation","coverage"]]

    CREATE TEMP TABLE import_employments ON COMMIT DROP AS
    WITH last_employee AS (SELECT id, line, false AS deleting, company_id, person_id, first_name, last_name, date_of_birth, gender, email, phone, address_line1, address_line2, city, state, postal_code, external_ids, created_at, updated_at, first_name_folded, last_name_folded, membership_line, membership_status, invitation_line, invitation_status, invitation_invited_at, invitation_expires_at, linkedUser_line, linked_user_status, participation_line, has_participation, participation_decision, participation_decided_at, coverage_line, coverage_status, coverage_starts_at, coverage_ends_at, coverage_plan_tier FROM import_employees i),
    -- A snapshot deletes the stored employments of its companies that the file has no employee record for.
    snapshot AS (
      SELECT e.id, e.company_id FROM employees e
       WHERE e.company_id = ANY ($1::text[]) AND NOT EXISTS (SELECT 1 FROM import_employees i WHERE i.id = e.id)
    ),
    after AS (
      SELECT le.id AS id,
             le.line AS employee_line,
             coalesce(le.deleting, false) OR (s.id IS NOT NULL AND le.line IS NULL) AS employee_deleting,
             s.company_id AS snapshot_company,
             le.stored_id IS NOT NULL AS stored,
             CASE WHEN le.line IS NOT NULL THEN NOT le.deleting WHEN s.id IS NOT NULL THEN false ELSE le.stored_id IS NOT NULL END AS present,
             CASE WHEN le.line IS NOT NULL THEN le.company_id ELSE le.stored_company_id END AS company_id,
             CASE WHEN le.line IS NOT NULL THEN le.person_id ELSE le.stored_person_id END AS person_id,
             CASE WHEN le.line IS NOT NULL THEN le.first_name ELSE le.stored_first_name END AS first_name,
             CASE WHEN le.line IS NOT NULL THEN le.last_name ELSE le.stored_last_name END AS last_name,
             CASE WHEN le.line IS NOT NULL THEN le.date_of_birth ELSE le.stored_date_of_birth END AS date_of_birth,
             CASE WHEN le.line IS NOT NULL THEN le.gender ELSE le.stored_gender END AS gender,
             CASE WHEN le.line IS NOT NULL THEN le.email ELSE le.stored_email END AS email,
             CASE WHEN le.line IS NOT NULL THEN le.phone ELSE le.stored_phone END AS phone,
             CASE WHEN le.line IS NOT NULL THEN le.address_line1 ELSE le.stored_address_line1 END AS address_line1,
             CASE WHEN le.line IS NOT NULL THEN le.address_line2 ELSE le.stored_address_line2 END AS address_line2,
             CASE WHEN le.line IS NOT NULL THEN le.city ELSE le.stored_city END AS city,
             CASE WHEN le.line IS NOT NULL THEN le.state ELSE le.stored_state END AS state,
             CASE WHEN le.line IS NOT NULL THEN le.postal_code ELSE le.stored_postal_code END AS postal_code,
             CASE WHEN le.line IS NOT NULL THEN le.external_ids ELSE le.stored_external_ids END AS external_ids,
             CASE WHEN le.line IS NOT NULL THEN le.created_at ELSE le.stored_created_at END AS created_at,
             CASE WHEN le.line IS NOT NULL THEN le.updated_at ELSE le.stored_updated_at END AS updated_at,
             CASE WHEN le.line IS NOT NULL THEN le.first_name_folded ELSE le.stored_first_name_folded END AS first_name_folded,
             CASE WHEN le.line IS NOT NULL THEN le.last_name_folded ELSE le.stored_last_name_folded END AS last_name_folded,
             CASE WHEN alone.id IS NULL THEN le.membership_line ELSE greatest(le.membership_line, alone.membership__line) END AS membership_line,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.membership_line IS NOT NULL THEN false END ELSE CASE WHEN (alone.membership__line IS NOT NULL AND (le.membership_line IS NULL OR alone.membership__line > le.membership_line)) THEN alone.membership__deleting WHEN le.membership_line IS NOT NULL THEN false END END AS membership_deleting,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.membership_line IS NOT NULL THEN true END ELSE CASE WHEN (alone.membership__line IS NOT NULL AND (le.membership_line IS NULL OR alone.membership__line > le.membership_line)) THEN alone.membership__explicit WHEN le.membership_line IS NOT NULL THEN true END END AS membership_explicit,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.membership_line IS NOT NULL THEN le.membership_status ELSE le.stored_membership_status END ELSE CASE WHEN greatest(le.membership_line, alone.membership__line) IS NOT NULL THEN CASE WHEN (alone.membership__line IS NOT NULL AND (le.membership_line IS NULL OR alone.membership__line > le.membership_line)) THEN alone.membership__membership_status WHEN le.membership_line IS NOT NULL THEN le.membership_status END ELSE le.stored_membership_status END END AS membership_status,
             CASE WHEN alone.id IS NULL THEN le.invitation_line ELSE greatest(le.invitation_line, alone.invitation__line) END AS invitation_line,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.invitation_line IS NOT NULL THEN false END ELSE CASE WHEN (alone.invitation__line IS NOT NULL AND (le.invitation_line IS NULL OR alone.invitation__line > le.invitation_line)) THEN alone.invitation__deleting WHEN le.invitation_line IS NOT NULL THEN false END END AS invitation_deleting,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.invitation_line IS NOT NULL THEN true END ELSE CASE WHEN (alone.invitation__line IS NOT NULL AND (le.invitation_line IS NULL OR alone.invitation__line > le.invitation_line)) THEN alone.invitation__explicit WHEN le.invitation_line IS NOT NULL THEN true END END AS invitation_explicit,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.invitation_line IS NOT NULL THEN le.invitation_status ELSE le.stored_invitation_status END ELSE CASE WHEN greatest(le.invitation_line, alone.invitation__line) IS NOT NULL THEN CASE WHEN (alone.invitation__line IS NOT NULL AND (le.invitation_line IS NULL OR alone.invitation__line > le.invitation_line)) THEN alone.invitation__invitation_status WHEN le.invitation_line IS NOT NULL THEN le.invitation_status END ELSE le.stored_invitation_status END END AS invitation_status,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.invitation_line IS NOT NULL THEN le.invitation_invited_at ELSE le.stored_invitation_invited_at END ELSE CASE WHEN greatest(le.invitation_line, alone.invitation__line) IS NOT NULL THEN CASE WHEN (alone.invitation__line IS NOT NULL AND (le.invitation_line IS NULL OR alone.invitation__line > le.invitation_line)) THEN alone.invitation__invitation_invited_at WHEN le.invitation_line IS NOT NULL THEN le.invitation_invited_at END ELSE le.stored_invitation_invited_at END END AS invitation_invited_at,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.invitation_line IS NOT NULL THEN le.invitation_expires_at ELSE le.stored_invitation_expires_at END ELSE CASE WHEN greatest(le.invitation_line, alone.invitation__line) IS NOT NULL THEN CASE WHEN (alone.invitation__line IS NOT NULL AND (le.invitation_line IS NULL OR alone.invitation__line > le.invitation_line)) THEN alone.invitation__invitation_expires_at WHEN le.invitation_line IS NOT NULL THEN le.invitation_expires_at END ELSE le.stored_invitation_expires_at END END AS invitation_expires_at,
             le.linkedUser_line AS linkedUser_line,
             CASE WHEN le.linkedUser_line IS NOT NULL THEN false END AS linkedUser_deleting,
             CASE WHEN le.linkedUser_line IS NOT NULL THEN true END AS linkedUser_explicit,
             CASE WHEN le.linkedUser_line IS NOT NULL THEN le.linked_user_status ELSE le.stored_linked_user_status END AS linked_user_status,
             le.participation_line AS participation_line,
             CASE WHEN le.participation_line IS NOT NULL THEN false END AS participation_deleting,
             CASE WHEN le.participation_line IS NOT NULL THEN true END AS participation_explicit,
             coalesce(CASE WHEN le.participation_line IS NOT NULL THEN le.has_participation ELSE le.stored_has_participation END, false) AS has_participation,
             CASE WHEN le.participation_line IS NOT NULL THEN le.participation_decision ELSE le.stored_participation_decision END AS participation_decision,
             CASE WHEN le.participation_line IS NOT NULL THEN le.participation_decided_at ELSE le.stored_participation_decided_at END AS participation_decided_at,
             CASE WHEN alone.id IS NULL THEN le.coverage_line ELSE greatest(le.coverage_line, alone.coverage__line) END AS coverage_line,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.coverage_line IS NOT NULL THEN false END ELSE CASE WHEN (alone.coverage__line IS NOT NULL AND (le.coverage_line IS NULL OR alone.coverage__line > le.coverage_line)) THEN alone.coverage__deleting WHEN le.coverage_line IS NOT NULL THEN false END END AS coverage_deleting,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.coverage_line IS NOT NULL THEN true END ELSE CASE WHEN (alone.coverage__line IS NOT NULL AND (le.coverage_line IS NULL OR alone.coverage__line > le.coverage_line)) THEN alone.coverage__explicit WHEN le.coverage_line IS NOT NULL THEN true END END AS coverage_explicit,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.coverage_line IS NOT NULL THEN le.coverage_status ELSE le.stored_coverage_status END ELSE CASE WHEN greatest(le.coverage_line, alone.coverage__line) IS NOT NULL THEN CASE WHEN (alone.coverage__line IS NOT NULL AND (le.coverage_line IS NULL OR alone.coverage__line > le.coverage_line)) THEN alone.coverage__coverage_status WHEN le.coverage_line IS NOT NULL THEN le.coverage_status END ELSE le.stored_coverage_status END END AS coverage_status,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.coverage_line IS NOT NULL THEN le.coverage_starts_at ELSE le.stored_coverage_starts_at END ELSE CASE WHEN greatest(le.coverage_line, alone.coverage__line) IS NOT NULL THEN CASE WHEN (alone.coverage__line IS NOT NULL AND (le.coverage_line IS NULL OR alone.coverage__line > le.coverage_line)) THEN alone.coverage__coverage_starts_at WHEN le.coverage_line IS NOT NULL THEN le.coverage_starts_at END ELSE le.stored_coverage_starts_at END END AS coverage_starts_at,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.coverage_line IS NOT NULL THEN le.coverage_ends_at ELSE le.stored_coverage_ends_at END ELSE CASE WHEN greatest(le.coverage_line, alone.coverage__line) IS NOT NULL THEN CASE WHEN (alone.coverage__line IS NOT NULL AND (le.coverage_line IS NULL OR alone.coverage__line > le.coverage_line)) THEN alone.coverage__coverage_ends_at WHEN le.coverage_line IS NOT NULL THEN le.coverage_ends_at END ELSE le.stored_coverage_ends_at END END AS coverage_ends_at,
             CASE WHEN alone.id IS NULL THEN CASE WHEN le.coverage_line IS NOT NULL THEN le.coverage_plan_tier ELSE le.stored_coverage_plan_tier END ELSE CASE WHEN greatest(le.coverage_line, alone.coverage__line) IS NOT NULL THEN CASE WHEN (alone.coverage__line IS NOT NULL AND (le.coverage_line IS NULL OR alone.coverage__line > le.coverage_line)) THEN alone.coverage__coverage_plan_tier WHEN le.coverage_line IS NOT NULL THEN le.coverage_plan_tier END ELSE le.stored_coverage_plan_tier END END AS coverage_plan_tier,
             le.stored_id, le.stored_company_id, le.stored_person_id, le.stored_first_name, le.stored_last_name, le.stored_date_of_birth, le.stored_gender, le.stored_email, le.stored_phone, le.stored_address_line1, le.stored_address_line2, le.stored_city, le.stored_state, le.stored_postal_code, le.stored_external_ids, le.stored_created_at, le.stored_updated_at, le.stored_first_name_folded, le.stored_last_name_folded, le.stored_membership_status, le.stored_invitation_status, le.stored_invitation_invited_at, le.stored_invitation_expires_at, le.stored_linked_user_status, le.stored_has_participation, le.stored_participation_decision, le.stored_participation_decided_at, le.stored_coverage_status, le.stored_coverage_starts_at, le.stored_coverage_ends_at, le.stored_coverage_plan_tier
        FROM (SELECT le.*, e.id AS stored_id, e.company_id AS stored_company_id, e.person_id AS stored_person_id, e.first_name AS stored_first_name, e.last_name AS stored_last_name, e.date_of_birth AS stored_date_of_birth, e.gender AS stored_gender, e.email AS stored_email, e.phone AS stored_phone, e.address_line1 AS stored_address_line1, e.address_line2 AS stored_address_line2, e.city AS stored_city, e.state AS stored_state, e.postal_code AS stored_postal_code, e.external_ids AS stored_external_ids, e.created_at AS stored_created_at, e.updated_at AS stored_updated_at, e.first_name_folded AS stored_first_name_folded, e.last_name_folded AS stored_last_name_folded, e.membership_status AS stored_membership_status, e.invitation_status AS stored_invitation_status, e.invitation_invited_at AS stored_invitation_invited_at, e.invitation_expires_at AS stored_invitation_expires_at, e.linked_user_status AS stored_linked_user_status, e.has_participation AS stored_has_participation, e.participation_decision AS stored_participation_decision, e.participation_decided_at AS stored_participation_decided_at, e.coverage_status AS stored_coverage_status, e.coverage_starts_at AS stored_coverage_starts_at, e.coverage_ends_at AS stored_coverage_ends_at, e.coverage_plan_tier AS stored_coverage_plan_tier FROM last_employee le LEFT JOIN LATERAL (SELECT * FROM employees e WHERE e.id = le.id OFFSET 0) e ON true
        UNION ALL
        SELECT x.id, NULL::integer, NULL::boolean, NULL::text AS company_id, NULL::uuid AS person_id, NULL::text AS first_name, NULL::text AS last_name, NULL::date AS date_of_birth, NULL::text AS gender, NULL::text AS email, NULL::text AS phone, NULL::text AS address_line1, NULL::text AS address_line2, NULL::text AS city, NULL::text AS state, NULL::text AS postal_code, NULL::jsonb AS external_ids, NULL::timestamptz AS created_at, NULL::timestamptz AS updated_at, NULL::text AS first_name_folded, NULL::text AS last_name_folded, NULL::integer AS membership_line, NULL::text AS membership_status, NULL::integer AS invitation_line, NULL::text AS invitation_status, NULL::timestamptz AS invitation_invited_at, NULL::timestamptz AS invitation_expires_at, NULL::integer AS linkedUser_line, NULL::text AS linked_user_status, NULL::integer AS participation_line, NULL::boolean AS has_participation, NULL::text AS participation_decision, NULL::timestamptz AS participation_decided_at, NULL::integer AS coverage_line, NULL::text AS coverage_status, NULL::timestamptz AS coverage_starts_at, NULL::timestamptz AS coverage_ends_at, NULL::text AS coverage_plan_tier, e.id AS stored_id, e.company_id AS stored_company_id, e.person_id AS stored_person_id, e.first_name AS stored_first_name, e.last_name AS stored_last_name, e.date_of_birth AS stored_date_of_birth, e.gender AS stored_gender, e.email AS stored_email, e.phone AS stored_phone, e.address_line1 AS stored_address_line1, e.address_line2 AS stored_address_line2, e.city AS stored_city, e.state AS stored_state, e.postal_code AS stored_postal_code, e.external_ids AS stored_external_ids, e.created_at AS stored_created_at, e.updated_at AS stored_updated_at, e.first_name_folded AS stored_first_name_folded, e.last_name_folded AS stored_last_name_folded, e.membership_status AS stored_membership_status, e.invitation_status AS stored_invitation_status, e.invitation_invited_at AS stored_invitation_invited_at, e.invitation_expires_at AS stored_invitation_expires_at, e.linked_user_status AS stored_linked_user_status, e.has_participation AS stored_has_participation, e.participation_decision AS stored_participation_decision, e.participation_decided_at AS stored_participation_decided_at, e.coverage_status AS stored_coverage_status, e.coverage_starts_at AS stored_coverage_starts_at, e.coverage_ends_at AS stored_coverage_ends_at, e.coverage_plan_tier AS stored_coverage_plan_tier
          FROM (SELECT id::uuid FROM import_deletes WHERE record = 'employee' OR record = ANY ($2::text[]) UNION SELECT employee_id AS id FROM import_membership_records UNION SELECT employee_id AS id FROM import_coverage_records) x LEFT JOIN LATERAL (SELECT * FROM employees e WHERE e.id = x.id OFFSET 0) e ON true
         WHERE NOT EXISTS (SELECT 1 FROM import_employees i WHERE i.id = x.id)
        OFFSET 0) le
        LEFT JOIN snapshot s ON s.id = le.id
        LEFT JOIN (SELECT coalesce(membership.id, invitation.id, coverage.id) AS id, membership.line AS membership__line, membership.deleting AS membership__deleting, membership.explicit AS membership__explicit, membership.membership_status AS membership__membership_status, invitation.line AS invitation__line, invitation.deleting AS invitation__deleting, invitation.explicit AS invitation__explicit, invitation.invitation_status AS invitation__invitation_status, invitation.invitation_invited_at AS invitation__invitation_invited_at, invitation.invitation_expires_at AS invitation__invitation_expires_at, coverage.line AS coverage__line, coverage.deleting AS coverage__deleting, coverage.explicit AS coverage__explicit, coverage.coverage_status AS coverage__coverage_status, coverage.coverage_starts_at AS coverage__coverage_starts_at, coverage.coverage_ends_at AS coverage__coverage_ends_at, coverage.coverage_plan_tier AS coverage__coverage_plan_tier
          FROM (SELECT * FROM (SELECT employee_id AS id, line, false AS deleting, true AS explicit, membership_status FROM import_membership_records
       UNION ALL SELECT id::uuid, line, true, true, NULL::text AS membership_status FROM import_deletes WHERE record = 'membership') ev WHERE NOT EXISTS (SELECT 1 FROM (SELECT employee_id AS id, line FROM import_membership_records UNION ALL SELECT id::uuid, line FROM import_deletes WHERE record = 'membership') l WHERE l.id = ev.id AND l.line > ev.line)) membership
          FULL JOIN (SELECT * FROM (SELECT employee_id AS id, line, false AS deleting, true AS explicit, invitation_status, invitation_invited_at, invitation_expires_at FROM import_invitation_records
       UNION ALL SELECT id::uuid, line, true, true, NULL::text AS invitation_status, NULL::timestamptz AS invitation_invited_at, NULL::timestamptz AS invitation_expires_at FROM import_deletes WHERE record = 'invitation') ev WHERE NOT EXISTS (SELECT 1 FROM (SELECT employee_id AS id, line FROM import_invitation_records UNION ALL SELECT id::uuid, line FROM import_deletes WHERE record = 'invitation') l WHERE l.id = ev.id AND l.line > ev.line)) invitation ON invitation.id = membership.id
          FULL JOIN (SELECT * FROM (SELECT employee_id AS id, line, false AS deleting, true AS explicit, coverage_status, coverage_starts_at, coverage_ends_at, coverage_plan_tier FROM import_coverage_records
       UNION ALL SELECT id::uuid, line, true, true, NULL::text AS coverage_status, NULL::timestamptz AS coverage_starts_at, NULL::timestamptz AS coverage_ends_at, NULL::text AS coverage_plan_tier FROM import_deletes WHERE record = 'coverage') ev WHERE NOT EXISTS (SELECT 1 FROM (SELECT employee_id AS id, line FROM import_coverage_records UNION ALL SELECT id::uuid, line FROM import_deletes WHERE record = 'coverage') l WHERE l.id = ev.id AND l.line > ev.line)) coverage ON coverage.id = coalesce(membership.id, invitation.id)) alone ON alone.id = le.id
    )
    SELECT o.id, o.employee_line, o.employee_deleting, o.snapshot_company, o.stored, o.present, o.company_id, o.person_id, CASE WHEN o.write THEN o.first_name END AS first_name, CASE WHEN o.write THEN o.last_name END AS last_name, CASE WHEN o.write THEN o.date_of_birth END AS date_of_birth, CASE WHEN o.write THEN o.gender END AS gender, CASE WHEN o.write THEN o.email END AS email, CASE WHEN o.write THEN o.phone END AS phone, CASE WHEN o.write THEN o.address_line1 END AS address_line1, CASE WHEN o.write THEN o.address_line2 END AS address_line2, CASE WHEN o.write THEN o.city END AS city, CASE WHEN o.write THEN o.state END AS state, CASE WHEN o.write THEN o.postal_code END AS postal_code, CASE WHEN o.write THEN o.external_ids END AS external_ids, CASE WHEN o.write THEN o.created_at END AS created_at, CASE WHEN o.write THEN o.updated_at END AS updated_at, CASE WHEN o.write THEN o.first_name_folded END AS first_name_folded, CASE WHEN o.write THEN o.last_name_folded END AS last_name_folded, o.membership_line, o.membership_deleting, o.membership_explicit, CASE WHEN o.write THEN o.membership_status END AS membership_status, o.invitation_line, o.invitation_deleting, o.invitation_explicit, CASE WHEN o.write THEN o.invitation_status END AS invitation_status, CASE WHEN o.write THEN o.invitation_invited_at END AS invitation_invited_at, CASE WHEN o.write THEN o.invitation_expires_at END AS invitation_expires_at, o.linkedUser_line, o.linkedUser_deleting, o.linkedUser_explicit, CASE WHEN o.write THEN o.linked_user_status END AS linked_user_status, o.participation_line, o.participation_deleting, o.participation_explicit, CASE WHEN o.write THEN o.has_participation END AS has_participation, CASE WHEN o.write THEN o.participation_decision END AS participation_decision, CASE WHEN o.write THEN o.participation_decided_at END AS participation_decided_at, o.coverage_line, o.coverage_deleting, o.coverage_explicit, CASE WHEN o.write THEN o.coverage_status END AS coverage_status, CASE WHEN o.write THEN o.coverage_starts_at END AS coverage_starts_at, CASE WHEN o.write THEN o.coverage_ends_at END AS coverage_ends_at, CASE WHEN o.write THEN o.coverage_plan_tier END AS coverage_plan_tier,
           o.stored_person_id, o.employee, o.membership, o.invitation, o.linkedUser, o.participation, o.coverage, o.write
      FROM (SELECT f.*, CASE WHEN f.employee_line IS NOT NULL OR f.snapshot_company IS NOT NULL
            THEN 
  CASE WHEN NOT (f.present) THEN CASE WHEN f.stored THEN 'deleted' WHEN f.employee_deleting THEN 'already_absent' END
       WHEN NOT (f.stored) THEN 'added'
       WHEN (f.company_id, f.person_id, f.first_name, f.last_name, f.date_of_birth, f.gender, f.email, f.phone, f.address_line1, f.address_line2, f.city, f.state, f.postal_code, f.external_ids, f.created_at, f.updated_at, f.first_name_folded, f.last_name_folded) IS DISTINCT FROM (f.stored_company_id, f.stored_person_id, f.stored_first_name, f.stored_last_name, f.stored_date_of_birth, f.stored_gender, f.stored_email, f.stored_phone, f.stored_address_line1, f.stored_address_line2, f.stored_city, f.stored_state, f.stored_postal_code, f.stored_external_ids, f.stored_created_at, f.stored_updated_at, f.stored_first_name_folded, f.stored_last_name_folded) THEN 'changed' ELSE 'unchanged' END END AS employee,
                   CASE WHEN f.membership_explicit OR (f.stored AND f.stored_membership_status IS NOT NULL AND (f.membership_line IS NOT NULL OR NOT f.present))
            THEN 
  CASE WHEN NOT ((f.present AND f.membership_status IS NOT NULL)) THEN CASE WHEN (f.stored AND f.stored_membership_status IS NOT NULL) THEN 'deleted' WHEN coalesce(f.membership_deleting AND f.membership_explicit, false) THEN 'already_absent' END
       WHEN NOT ((f.stored AND f.stored_membership_status IS NOT NULL)) THEN 'added'
       WHEN (f.membership_status) IS DISTINCT FROM (f.stored_membership_status) THEN 'changed' ELSE 'unchanged' END END AS membership,
                   CASE WHEN f.invitation_explicit OR (f.stored AND f.stored_invitation_status IS NOT NULL AND (f.invitation_line IS NOT NULL OR NOT f.present))
            THEN 
  CASE WHEN NOT ((f.present AND f.invitation_status IS NOT NULL)) THEN CASE WHEN (f.stored AND f.stored_invitation_status IS NOT NULL) THEN 'deleted' WHEN coalesce(f.invitation_deleting AND f.invitation_explicit, false) THEN 'already_absent' END
       WHEN NOT ((f.stored AND f.stored_invitation_status IS NOT NULL)) THEN 'added'
       WHEN (f.invitation_status, f.invitation_invited_at, f.invitation_expires_at) IS DISTINCT FROM (f.stored_invitation_status, f.stored_invitation_invited_at, f.stored_invitation_expires_at) THEN 'changed' ELSE 'unchanged' END END AS invitation,
                   CASE WHEN f.linkedUser_explicit OR (f.stored AND f.stored_linked_user_status IS NOT NULL AND (f.linkedUser_line IS NOT NULL OR NOT f.present))
            THEN 
  CASE WHEN NOT ((f.present AND f.linked_user_status IS NOT NULL)) THEN CASE WHEN (f.stored AND f.stored_linked_user_status IS NOT NULL) THEN 'deleted' WHEN coalesce(f.linkedUser_deleting AND f.linkedUser_explicit, false) THEN 'already_absent' END
       WHEN NOT ((f.stored AND f.stored_linked_user_status IS NOT NULL)) THEN 'added'
       WHEN (f.linked_user_status) IS DISTINCT FROM (f.stored_linked_user_status) THEN 'changed' ELSE 'unchanged' END END AS linkedUser,
                   CASE WHEN f.participation_explicit OR (f.stored AND f.stored_has_participation AND (f.participation_line IS NOT NULL OR NOT f.present))
            THEN 
  CASE WHEN NOT ((f.present AND f.has_participation)) THEN CASE WHEN (f.stored AND f.stored_has_participation) THEN 'deleted' WHEN coalesce(f.participation_deleting AND f.participation_explicit, false) THEN 'already_absent' END
       WHEN NOT ((f.stored AND f.stored_has_participation)) THEN 'added'
       WHEN (f.has_participation, f.participation_decision, f.participation_decided_at) IS DISTINCT FROM (f.stored_has_participation, f.stored_participation_decision, f.stored_participation_decided_at) THEN 'changed' ELSE 'unchanged' END END AS participation,
                   CASE WHEN f.coverage_explicit OR (f.stored AND f.stored_coverage_status IS NOT NULL AND (f.coverage_line IS NOT NULL OR NOT f.present))
            THEN 
  CASE WHEN NOT ((f.present AND f.coverage_status IS NOT NULL)) THEN CASE WHEN (f.stored AND f.stored_coverage_status IS NOT NULL) THEN 'deleted' WHEN coalesce(f.coverage_deleting AND f.coverage_explicit, false) THEN 'already_absent' END
       WHEN NOT ((f.stored AND f.stored_coverage_status IS NOT NULL)) THEN 'added'
       WHEN (f.coverage_status, f.coverage_starts_at, f.coverage_ends_at, f.coverage_plan_tier) IS DISTINCT FROM (f.stored_coverage_status, f.stored_coverage_starts_at, f.stored_coverage_ends_at, f.stored_coverage_plan_tier) THEN 'changed' ELSE 'unchanged' END END AS coverage,
                   f.present AND (NOT f.stored OR (f.company_id, f.person_id, f.first_name, f.last_name, f.date_of_birth, f.gender, f.email, f.phone, f.address_line1, f.address_line2, f.city, f.state, f.postal_code, f.external_ids, f.created_at, f.updated_at, f.first_name_folded, f.last_name_folded, f.membership_status, f.invitation_status, f.invitation_invited_at, f.invitation_expires_at, f.linked_user_status, f.has_participation, f.participation_decision, f.participation_decided_at, f.coverage_status, f.coverage_starts_at, f.coverage_ends_at, f.coverage_plan_tier) IS DISTINCT FROM (f.stored_company_id, f.stored_person_id, f.stored_first_name, f.stored_last_name, f.stored_date_of_birth, f.stored_gender, f.stored_email, f.stored_phone, f.stored_address_line1, f.stored_address_line2, f.stored_city, f.stored_state, f.stored_postal_code, f.stored_external_ids, f.stored_created_at, f.stored_updated_at, f.stored_first_name_folded, f.stored_last_name_folded, f.stored_membership_status, f.stored_invitation_status, f.stored_invitation_invited_at, f.stored_invitation_expires_at, f.stored_linked_user_status, f.stored_has_participation, f.stored_participation_decision, f.stored_participation_decided_at, f.stored_coverage_status, f.stored_coverage_starts_at, f.stored_coverage_ends_at, f.stored_coverage_plan_tier)) AS write
              FROM after f OFFSET 0) o
    

-- next statement
-- params: []
SET LOCAL enable_mergejoin = on

-- next statement
-- params: []

    CREATE TEMP TABLE import_employment_outcomes ON COMMIT DROP AS
    SELECT id, employee, membership, invitation, linkedUser, participation, coverage, write FROM import_employments

-- next statement
-- params: []

    CREATE TEMP TABLE import_credential_outcomes ON COMMIT DROP AS
    WITH last AS (
      SELECT DISTINCT ON (coalesce(id::text, encode(token_hash, 'hex'))) * FROM import_credentials
       ORDER BY coalesce(id::text, encode(token_hash, 'hex')), line DESC
    ),
    matched AS (
      SELECT l.*, c.id AS stored_id, c.name AS stored_name, c.token_hash AS stored_hash, c.company_set_id AS stored_set,
             c.fields AS stored_fields, c.purpose AS stored_purpose,
             (SELECT coalesce(array_agg(cc.company_id ORDER BY cc.company_id), '{}') FROM credential_companies cc WHERE cc.credential_id = c.company_set_id) AS stored_companies
        FROM last l
        LEFT JOIN credentials c ON (l.id IS NOT NULL AND c.id = l.id) OR (l.id IS NULL AND c.token_hash = l.token_hash)
    )
    SELECT line, coalesce(stored_id, id, gen_random_uuid()) AS id, name, token_hash,
           ARRAY(SELECT DISTINCT unnest(companies) ORDER BY 1) AS companies, fields, purpose,
           stored_id IS NOT NULL AS stored, stored_set, stored_companies,
           
  CASE WHEN NOT (true) THEN CASE WHEN stored_id IS NOT NULL THEN 'deleted' WHEN false THEN 'already_absent' END
       WHEN NOT (stored_id IS NOT NULL) THEN 'added'
       WHEN (stored_name, stored_hash, stored_companies, stored_fields, stored_purpose) IS DISTINCT FROM (name, token_hash, ARRAY(SELECT DISTINCT unnest(companies) ORDER BY 1), fields, purpose) THEN 'changed' ELSE 'unchanged' END AS outcome
      FROM matched

-- next statement
-- params: []
ANALYZE import_company_outcomes (id, deleting, outcome)

-- next statement
-- params: []
ANALYZE import_person_outcomes (id, deleting, outcome)

-- next statement
-- params: []
ANALYZE import_employments (id, company_id, person_id, employee_line, present, stored)

-- next statement
-- params: []
ANALYZE import_employment_outcomes (id, write)

-- next statement
-- params: []
ANALYZE import_credential_outcomes (id, outcome)
