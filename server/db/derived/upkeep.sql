-- The derived data's upkeep: how every derived table (server/db/derived/README.md) follows
-- the source tables, within the statement that changes them, for every writer (import,
-- erasure, the CLIs, plain SQL). This is its one definition.
--
-- A repeatable source, not a migration: the migrator applies it after the migrations
-- whenever its text has changed or a migration has been added since, in one transaction
-- under the migrators' lock, and records its checksum and the last migration in
-- schema_migrations (server/db/schema/migrate.ts). So every statement here must be safe to run
-- again: CREATE OR REPLACE FUNCTION and CREATE OR REPLACE TRIGGER. Removing an object takes an explicit
-- DROP ... IF EXISTS here; changing a function's arguments or result takes a DROP first.
-- It changes no stored row; the helpers that decide what stored rows mean (utc_day,
-- name_pieces, short_fragments) are in the baseline migration.
--
-- (Comment lines inside a function body are dropped when the migrator applies it, so a
-- body's comments are for readers of this file.)

-- ---------------------------------------------------------------------------
-- One writer of source data at a time. Every writer takes this lock before it brings the
-- derived data up to date, and an import holds it for its whole transaction
-- (server/db/stores/writersLock.ts): under READ COMMITTED each writer then sees what the one
-- before it committed, so the derived data stays exact under concurrent writers. Readers
-- never take it.
-- ---------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION lock_data_writers() RETURNS void LANGUAGE sql AS $$ SELECT pg_advisory_xact_lock(728302) $$;
-- The same lock, only if no other writer holds it: for periodic writers that would rather
-- come back than queue behind an import (the change feed's clock, server/db/feed/upkeep.ts).
CREATE OR REPLACE FUNCTION try_lock_data_writers() RETURNS boolean LANGUAGE sql AS $$ SELECT pg_try_advisory_xact_lock(728302) $$;
-- Taken before a statement touches a row, so that a plain-SQL writer queues behind an
-- import instead of holding rows the import waits for (a deadlock PostgreSQL would break
-- by aborting one of them).
CREATE OR REPLACE FUNCTION lock_data_writers_first() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lock_data_writers();
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER employees_locked BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON employees
  FOR EACH STATEMENT EXECUTE FUNCTION lock_data_writers_first();
CREATE OR REPLACE TRIGGER persons_locked BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON persons
  FOR EACH STATEMENT EXECUTE FUNCTION lock_data_writers_first();
CREATE OR REPLACE TRIGGER credential_companies_locked BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON credential_companies
  FOR EACH STATEMENT EXECUTE FUNCTION lock_data_writers_first();

-- ---------------------------------------------------------------------------
-- Any change of employees (insert, update, delete; import, COPY or plain SQL), once per
-- statement. The changed rows that matter (linked, and for an update only where the
-- company, person, person's creation time or a folded name changed) are noted, old and
-- new. For every person they concern, what the person bore before the statement (their
-- employments now, less the new rows, plus the old ones) and after it (their employments
-- now) are set side by side, and each derived table writes only the difference: exact,
-- at a cost in proportion to the change.
--
-- The affected people's employments are reached by index always (OFFSET 0 keeps the
-- planner from flattening the LATERAL into a join it may hash over the whole table), and
-- name pieces are cut inline rather than by a call of name_pieces per name.
--
-- The notes (temporary tables, one set per session) are created ON COMMIT DELETE ROWS:
-- emptied at every commit and undone by a rollback, so a session that imported or erased
-- someone keeps no copy of their folded names past its transaction, out of every table a
-- dump reads (erasure relies on it).
-- ---------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION follow_employment_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  noted bigint;
  hash_join text := current_setting('enable_hashjoin');
  merge_join text := current_setting('enable_mergejoin');
  nest_loop text := current_setting('enable_nestloop');
BEGIN
  PERFORM lock_data_writers();
  IF to_regclass('pg_temp.employment_changes') IS NULL THEN
    -- side: 'o' an old row, 'n' a new one.
    CREATE TEMP TABLE employment_changes (
      side "char" NOT NULL, id uuid NOT NULL, company_id text NOT NULL, person_id uuid NOT NULL,
      person_created_at timestamptz NOT NULL, last_name_folded text NOT NULL, first_name_folded text NOT NULL) ON COMMIT DELETE ROWS;
    -- side: 'b' before the statement, 'a' after it; one row per (company, creation time, person, names) borne.
    CREATE TEMP TABLE employment_states (
      side "char" NOT NULL, company_id text NOT NULL, person_created_at timestamptz NOT NULL, person_id uuid NOT NULL,
      last_name_folded text NOT NULL, first_name_folded text NOT NULL) ON COMMIT DELETE ROWS;
  END IF;
  TRUNCATE employment_changes, employment_states;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO employment_changes
    SELECT 'n', id, company_id, person_id, person_created_at, last_name_folded, first_name_folded FROM new_rows WHERE person_id IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO employment_changes
    SELECT 'o', id, company_id, person_id, person_created_at, last_name_folded, first_name_folded FROM old_rows WHERE person_id IS NOT NULL;
  ELSE
    -- The old and new rows matched by id, hashed: the transition tables' sizes are not
    -- always known to the (cached) plan, and a nested loop over thousands of rows on each
    -- side compares every pair. Restored right after.
    PERFORM set_config('enable_nestloop', 'off', true);
    INSERT INTO employment_changes
    SELECT s.*
      FROM old_rows o JOIN new_rows n ON n.id = o.id
     CROSS JOIN LATERAL (VALUES ('o'::"char", o.id, o.company_id, o.person_id, o.person_created_at, o.last_name_folded, o.first_name_folded),
                                ('n'::"char", n.id, n.company_id, n.person_id, n.person_created_at, n.last_name_folded, n.first_name_folded))
           AS s(side, id, company_id, person_id, person_created_at, last_name_folded, first_name_folded)
     WHERE (o.company_id, o.person_id, o.person_created_at, o.last_name_folded, o.first_name_folded)
           IS DISTINCT FROM (n.company_id, n.person_id, n.person_created_at, n.last_name_folded, n.first_name_folded)
       AND s.person_id IS NOT NULL;
    PERFORM set_config('enable_nestloop', nest_loop, true);
  END IF;
  GET DIAGNOSTICS noted = ROW_COUNT;
  IF noted = 0 THEN RETURN NULL; END IF;
  IF noted > 1000 THEN ANALYZE employment_changes; END IF;

  INSERT INTO employment_states
  WITH affected AS (SELECT DISTINCT person_id FROM employment_changes),
  -- (LATERAL: each person's employments by index, never a scan of all employments; OFFSET 0
  -- keeps the planner from flattening it into a join it may hash.)
  now_borne AS (
    SELECT e.id, e.company_id, e.person_created_at, e.person_id, e.last_name_folded, e.first_name_folded
      FROM affected a CROSS JOIN LATERAL (SELECT * FROM employees y WHERE y.person_id = a.person_id OFFSET 0) e
  )
  SELECT DISTINCT 'b'::"char", company_id, person_created_at, person_id, last_name_folded, first_name_folded
    FROM (SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM now_borne h
           WHERE NOT EXISTS (SELECT 1 FROM employment_changes c WHERE c.side = 'n' AND c.id = h.id)
          UNION ALL
          SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM employment_changes WHERE side = 'o') b
  UNION ALL
  SELECT DISTINCT 'a'::"char", company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM now_borne;
  IF noted > 1000 THEN ANALYZE employment_states; END IF;

  -- Name pieces: the entries of what is no longer borne go, of what is newly borne come.
  -- A first-name entry holds no last name, so it is compared without it: a changed last
  -- name leaves the first-name entries alone. ('f' rows of the notes have no last name.)
  CREATE TEMP TABLE IF NOT EXISTS name_pieces_gone (side "char", piece text, company_id text, person_created_at timestamptz, person_id uuid, last_name_folded text, first_name_folded text) ON COMMIT DELETE ROWS;
  TRUNCATE name_pieces_gone;
  INSERT INTO name_pieces_gone
  WITH gone AS (
    SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM employment_states WHERE side = 'b'
    EXCEPT
    SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM employment_states WHERE side = 'a'
  ),
  first_gone AS (
    SELECT company_id, person_created_at, person_id, first_name_folded FROM employment_states WHERE side = 'b'
    EXCEPT
    SELECT company_id, person_created_at, person_id, first_name_folded FROM employment_states WHERE side = 'a'
  )
  SELECT 'l', p, g.* FROM gone g CROSS JOIN LATERAL (SELECT DISTINCT substr(g.last_name_folded, s, 3) FROM generate_series(1, length(g.last_name_folded) - 2) AS s) AS x(p)
  UNION ALL
  SELECT 'f', p, g.company_id, g.person_created_at, g.person_id, NULL, g.first_name_folded
    FROM first_gone g CROSS JOIN LATERAL (SELECT DISTINCT substr(g.first_name_folded, s, 3) FROM generate_series(1, length(g.first_name_folded) - 2) AS s) AS x(p);
  -- From here on, joins with the big tables go by their indexes (nested loops from the
  -- few changed keys), never by a scan of every entry or bucket; restored at the end.
  PERFORM set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true);
  DELETE FROM last_name_pieces y USING name_pieces_gone g
   WHERE g.side = 'l' AND y.piece = g.piece AND y.company_id = g.company_id AND y.person_created_at = g.person_created_at AND y.person_id = g.person_id
     AND y.last_name_folded = g.last_name_folded AND y.first_name_folded = g.first_name_folded;
  DELETE FROM first_name_pieces y USING name_pieces_gone g
   WHERE g.side = 'f' AND y.piece = g.piece AND y.company_id = g.company_id AND y.person_created_at = g.person_created_at AND y.person_id = g.person_id
     AND y.first_name_folded = g.first_name_folded;
  WITH came AS (
    SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM employment_states WHERE side = 'a'
    EXCEPT
    SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM employment_states WHERE side = 'b'
  ),
  first_came AS (
    SELECT company_id, person_created_at, person_id, first_name_folded FROM employment_states WHERE side = 'a'
    EXCEPT
    SELECT company_id, person_created_at, person_id, first_name_folded FROM employment_states WHERE side = 'b'
  ),
  last_came AS (INSERT INTO last_name_pieces
                SELECT p, c.company_id, c.person_created_at, c.person_id, c.last_name_folded, c.first_name_folded
                  FROM came c CROSS JOIN LATERAL (SELECT DISTINCT substr(c.last_name_folded, s, 3) FROM generate_series(1, length(c.last_name_folded) - 2) AS s) AS x(p) ORDER BY 1, 2, 3, 4, 5, 6)
  INSERT INTO first_name_pieces (piece, company_id, person_created_at, person_id, first_name_folded)
  SELECT p, c.company_id, c.person_created_at, c.person_id, c.first_name_folded
    FROM first_came c CROSS JOIN LATERAL (SELECT DISTINCT substr(c.first_name_folded, s, 3) FROM generate_series(1, length(c.first_name_folded) - 2) AS s) AS x(p) ORDER BY 1, 2, 3, 4, 5;

  -- People rollups: a person counts once per (company, day), and once per (credential,
  -- day) over the credential's companies; only those whose presence changed move a count.
  CREATE TEMP TABLE IF NOT EXISTS rollup_deltas (credential boolean, key text, day date, delta integer) ON COMMIT DELETE ROWS;
  TRUNCATE rollup_deltas;
  INSERT INTO rollup_deltas
  WITH company_presence AS (SELECT DISTINCT side, company_id AS key, utc_day(person_created_at) AS day, person_id FROM employment_states),
  credential_presence AS (
    SELECT DISTINCT s.side, cc.credential_id::text AS key, utc_day(s.person_created_at) AS day, s.person_id
      FROM employment_states s JOIN credential_companies cc ON cc.company_id = s.company_id
  ),
  moved AS (
    (SELECT false AS credential, key, day, person_id, 1 AS delta FROM company_presence WHERE side = 'a'
     EXCEPT SELECT false, key, day, person_id, 1 FROM company_presence WHERE side = 'b')
    UNION ALL
    (SELECT false, key, day, person_id, -1 FROM company_presence WHERE side = 'b'
     EXCEPT SELECT false, key, day, person_id, -1 FROM company_presence WHERE side = 'a')
    UNION ALL
    (SELECT true, key, day, person_id, 1 FROM credential_presence WHERE side = 'a'
     EXCEPT SELECT true, key, day, person_id, 1 FROM credential_presence WHERE side = 'b')
    UNION ALL
    (SELECT true, key, day, person_id, -1 FROM credential_presence WHERE side = 'b'
     EXCEPT SELECT true, key, day, person_id, -1 FROM credential_presence WHERE side = 'a')
  )
  SELECT credential, key, day, sum(delta)::integer FROM moved GROUP BY 1, 2, 3 HAVING sum(delta) <> 0;
  IF noted > 1000 THEN ANALYZE rollup_deltas; END IF;
  -- Each bucket by its key: updated, then inserted where missing (an upsert would check a
  -- negative count before finding its row), then removed where nobody is counted any more.
  UPDATE people_by_company_day r SET people = r.people + d.delta FROM rollup_deltas d
   WHERE NOT d.credential AND r.company_id = d.key AND r.day = d.day;
  INSERT INTO people_by_company_day (company_id, day, people)
  SELECT d.key, d.day, d.delta FROM rollup_deltas d
   WHERE NOT d.credential AND NOT EXISTS (SELECT 1 FROM people_by_company_day r WHERE r.company_id = d.key AND r.day = d.day);
  DELETE FROM people_by_company_day r USING rollup_deltas d
   WHERE NOT d.credential AND r.company_id = d.key AND r.day = d.day AND r.people = 0;
  UPDATE people_by_credential_day r SET people = r.people + d.delta FROM rollup_deltas d
   WHERE d.credential AND r.credential_id = d.key::uuid AND r.day = d.day;
  INSERT INTO people_by_credential_day (credential_id, day, people)
  SELECT d.key::uuid, d.day, d.delta FROM rollup_deltas d
   WHERE d.credential AND NOT EXISTS (SELECT 1 FROM people_by_credential_day r WHERE r.credential_id = d.key::uuid AND r.day = d.day);
  DELETE FROM people_by_credential_day r USING rollup_deltas d
   WHERE d.credential AND r.credential_id = d.key::uuid AND r.day = d.day AND r.people = 0;
  PERFORM set_config('enable_hashjoin', hash_join, true), set_config('enable_mergejoin', merge_join, true);

  -- Name dictionaries: each name of a changed row is in its dictionary exactly when some
  -- linked employment bears it (a name nobody bears any more goes).
  INSERT INTO last_name_dictionary
  SELECT DISTINCT last_name_folded FROM employment_changes WHERE side = 'n' ORDER BY 1 ON CONFLICT DO NOTHING;
  INSERT INTO first_name_dictionary
  SELECT DISTINCT first_name_folded FROM employment_changes WHERE side = 'n' ORDER BY 1 ON CONFLICT DO NOTHING;
  -- (Whether anyone bears a name is one index probe per name, LATERAL.)
  DELETE FROM last_name_dictionary WHERE folded = ANY (ARRAY(
    SELECT c.folded FROM (SELECT DISTINCT last_name_folded AS folded FROM employment_changes WHERE side = 'o') c
      LEFT JOIN LATERAL (SELECT 1 AS held FROM employees e WHERE e.last_name_folded = c.folded AND e.person_id IS NOT NULL LIMIT 1) h ON true
     WHERE h.held IS NULL));
  DELETE FROM first_name_dictionary WHERE folded = ANY (ARRAY(
    SELECT c.folded FROM (SELECT DISTINCT first_name_folded AS folded FROM employment_changes WHERE side = 'o') c
      LEFT JOIN LATERAL (SELECT 1 AS held FROM employees e WHERE e.first_name_folded = c.folded AND e.person_id IS NOT NULL LIMIT 1) h ON true
     WHERE h.held IS NULL));
  RETURN NULL;
END
$$;
-- An import stands the per-statement upkeep aside for its own transaction
-- (`set_config('lookup.bulk', 'on', true)`, server/db/import/upkeep.ts) and brings the
-- derived data up to date once at its end. Every other writer is untouched: only an import
-- sets it, transaction-local. (Never ALTER TABLE ... DISABLE TRIGGER: its lock would block
-- readers.) The writers' lock is still taken first, by employees_locked.
CREATE OR REPLACE TRIGGER employees_inserted AFTER INSERT ON employees
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  WHEN (current_setting('lookup.bulk', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION follow_employment_changes();
CREATE OR REPLACE TRIGGER employees_updated AFTER UPDATE ON employees
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  WHEN (current_setting('lookup.bulk', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION follow_employment_changes();
CREATE OR REPLACE TRIGGER employees_deleted AFTER DELETE ON employees
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  WHEN (current_setting('lookup.bulk', true) IS DISTINCT FROM 'on') EXECUTE FUNCTION follow_employment_changes();

-- Emptying employees empties everything derived from it.
CREATE OR REPLACE FUNCTION forget_derived_data() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE last_name_dictionary, first_name_dictionary, last_name_pieces, first_name_pieces, people_by_company_day, people_by_credential_day;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER employees_truncated AFTER TRUNCATE ON employees FOR EACH STATEMENT EXECUTE FUNCTION forget_derived_data();

-- A person's times reach the copies on their employments in the same statement (the
-- employments' own upkeep then follows a changed creation time).
CREATE OR REPLACE FUNCTION follow_person_times() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- (Each person's employments by index, LATERAL, never a scan of all employments.)
  UPDATE employees e SET person_created_at = c.created_at, person_updated_at = c.updated_at
    FROM (SELECT y.ctid AS tid, n.created_at, n.updated_at
            FROM old_rows o JOIN new_rows n ON n.id = o.id
           CROSS JOIN LATERAL (SELECT x.ctid FROM employees x WHERE x.person_id = n.id) y
           WHERE (o.created_at, o.updated_at) IS DISTINCT FROM (n.created_at, n.updated_at)) c
   WHERE e.ctid = c.tid;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER persons_times_copied AFTER UPDATE ON persons
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION follow_person_times();

-- ---------------------------------------------------------------------------
-- A company set's rollup, counted from scratch: when its companies change (a new set is
-- written, a replaced one removed) and in a fill.
-- ---------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION recount_credential_people(credentials uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM people_by_credential_day WHERE credential_id = ANY (credentials);
  INSERT INTO people_by_credential_day (credential_id, day, people)
  SELECT cc.credential_id, utc_day(e.person_created_at), count(DISTINCT e.person_id)
    FROM credential_companies cc
    JOIN employees e ON e.company_id = cc.company_id AND e.person_id IS NOT NULL
   WHERE cc.credential_id = ANY (credentials)
   GROUP BY 1, 2;
END
$$;
CREATE OR REPLACE FUNCTION follow_credential_companies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lock_data_writers();
  PERFORM recount_credential_people(array_agg(DISTINCT credential_id)) FROM changed;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER credential_companies_added AFTER INSERT ON credential_companies
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION follow_credential_companies();
CREATE OR REPLACE TRIGGER credential_companies_removed AFTER DELETE ON credential_companies
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION follow_credential_companies();

-- ---------------------------------------------------------------------------
-- Every derived table filled from the source tables, assuming it is empty: the rebuild
-- after its TRUNCATE, and an import into a database with no linked employment (whose
-- derived data is empty), which must not TRUNCATE (that lock would block readers until
-- it commits). The employments are read once: what each linked one bears (company,
-- person's creation time, person, both folded names), made distinct, is what every
-- derived table is made of. Each distinct name is cut into its pieces once, by
-- name_pieces (the baseline migration's). Nothing is inserted in any order: an initial
-- load builds the indexes after the fill (server/db/import/deferredIndexes.ts). The
-- borne rows are a temporary table dropped at commit (and by a rollback), so no session
-- keeps a copy of the names past its transaction.
-- ---------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION fill_derived_data() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  merge_join text := current_setting('enable_mergejoin');
BEGIN
  PERFORM lock_data_writers();
  DROP TABLE IF EXISTS pg_temp.fill_borne;
  CREATE TEMP TABLE fill_borne ON COMMIT DROP AS
  SELECT DISTINCT company_id, person_created_at, person_id, last_name_folded, first_name_folded
    FROM employees WHERE person_id IS NOT NULL;
  ANALYZE fill_borne;
  INSERT INTO last_name_dictionary SELECT DISTINCT last_name_folded FROM fill_borne;
  INSERT INTO first_name_dictionary SELECT DISTINCT first_name_folded FROM fill_borne;
  -- Names repeat across people: the borne rows take their name's distinct pieces from a
  -- hash of them, cut once per name the dictionaries now hold (a merge join would sort
  -- every borne row by name; restored after). The
  -- borne rows are distinct and so are a name's pieces, so nothing else needs sorting or
  -- hashing to make the entries distinct. (A first-name entry holds no last name: its
  -- rows are made distinct without it first.)
  PERFORM set_config('enable_mergejoin', 'off', true);
  INSERT INTO last_name_pieces
  WITH pieces AS MATERIALIZED (SELECT n.folded AS name, unnest(name_pieces(n.folded)) AS piece FROM last_name_dictionary n)
  SELECT p.piece, b.company_id, b.person_created_at, b.person_id, b.last_name_folded, b.first_name_folded
    FROM fill_borne b JOIN pieces p ON p.name = b.last_name_folded;
  INSERT INTO first_name_pieces (piece, company_id, person_created_at, person_id, first_name_folded)
  WITH pieces AS MATERIALIZED (SELECT n.folded AS name, unnest(name_pieces(n.folded)) AS piece FROM first_name_dictionary n)
  SELECT p.piece, b.company_id, b.person_created_at, b.person_id, b.first_name_folded
    FROM (SELECT DISTINCT company_id, person_created_at, person_id, first_name_folded FROM fill_borne) b JOIN pieces p ON p.name = b.first_name_folded;
  PERFORM set_config('enable_mergejoin', merge_join, true);
  -- (Each person once per bucket, made distinct first: two hashes, where count(DISTINCT)
  -- would sort every row by its bucket.)
  INSERT INTO people_by_company_day (company_id, day, people)
  SELECT company_id, day, count(*)
    FROM (SELECT DISTINCT company_id, utc_day(person_created_at) AS day, person_id FROM fill_borne) b
   GROUP BY 1, 2;
  -- Every key credential_companies holds (a credential's, or whatever later keys it): what
  -- recount_credential_people counts, for all of them at once.
  INSERT INTO people_by_credential_day (credential_id, day, people)
  SELECT credential_id, day, count(*)
    FROM (SELECT DISTINCT cc.credential_id, utc_day(b.person_created_at) AS day, b.person_id
            FROM credential_companies cc JOIN fill_borne b ON b.company_id = cc.company_id) b
   GROUP BY 1, 2;
  DROP TABLE fill_borne;
END
$$;
-- Every derived table emptied and filled again: the invariant the tests hold the kept
-- tables to (server/db/derived/index.ts), and what a bulk load that writes employees
-- with the triggers disabled would run afterwards.
CREATE OR REPLACE FUNCTION rebuild_derived_data() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lock_data_writers();
  TRUNCATE last_name_dictionary, first_name_dictionary, last_name_pieces, first_name_pieces, people_by_company_day, people_by_credential_day;
  PERFORM fill_derived_data();
END
$$;

-- ---------------------------------------------------------------------------
-- The change feed (docs/decisions/0022-change-feed.md, table `changes`): every change of
-- a company's data, recorded once per statement from its transition tables, as ids and
-- kinds. Positions come from change_feed_head, whose row lock the recording transaction
-- holds until it commits, so they follow commit order (migration 007 says why). The
-- writers' lock is taken first, always, so every writer takes the two locks in one order.
-- Import bulk mode (lookup.bulk) does not turn it off: an initial load is recorded too.
-- ---------------------------------------------------------------------------
-- The head, locked: the last position handed out and the instant of this statement's
-- changes (never before the last one). The first position this transaction took is kept
-- for its later statements (lookup.feed_since, transaction-local).
CREATE OR REPLACE FUNCTION change_feed_base(OUT base bigint, OUT stamp timestamptz) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lock_data_writers();
  SELECT h.position, greatest(h.at, clock_timestamp()) INTO base, stamp FROM change_feed_head h FOR UPDATE;
  IF coalesce(current_setting('lookup.feed_since', true), '') = '' THEN
    PERFORM set_config('lookup.feed_since', base::text, true);
  END IF;
END
$$;
CREATE OR REPLACE FUNCTION change_feed_advance(base bigint, taken bigint, stamp timestamptz) RETURNS void LANGUAGE sql AS $$
  UPDATE change_feed_head SET position = base + taken, at = stamp WHERE taken > 0
$$;

-- employees: created, deleted, updated (any column but the person link and its copies of
-- the person's times), linked, unlinked (a relink is both); a move to another company is
-- deleted there and created here. A row written again unchanged makes no change.
CREATE OR REPLACE FUNCTION note_employee_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  base bigint;
  stamp timestamptz;
  taken bigint;
  nest_loop text := current_setting('enable_nestloop');
BEGIN
  SELECT * INTO base, stamp FROM change_feed_base();
  IF TG_OP = 'INSERT' THEN
    INSERT INTO changes (position, company_id, kind, employee_id, person_id, changed_at)
    SELECT base + row_number() OVER (), n.company_id, 'employee.created', n.id, n.person_id, stamp FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO changes (position, company_id, kind, employee_id, person_id, changed_at)
    SELECT base + row_number() OVER (), o.company_id, 'employee.deleted', o.id, o.person_id, stamp FROM old_rows o;
  ELSE
    -- Old and new rows matched by id, hashed (a nested loop over transition tables whose
    -- sizes the cached plan does not know compares every pair); restored right after.
    PERFORM set_config('enable_nestloop', 'off', true);
    INSERT INTO changes (position, company_id, kind, employee_id, person_id, changed_at)
    SELECT base + row_number() OVER (ORDER BY c.employee_id, c.step), c.company_id, c.kind, c.employee_id, c.person_id, stamp
      FROM (
        SELECT x.*
          FROM (SELECT o.id, o.company_id AS old_company, n.company_id AS new_company, o.person_id AS old_person, n.person_id AS new_person,
                       -- Compared whole; where the link moved, with the old link put back first.
                       CASE WHEN (o.person_id, o.person_created_at, o.person_updated_at) IS NOT DISTINCT FROM (n.person_id, n.person_created_at, n.person_updated_at)
                            THEN o IS DISTINCT FROM n
                            ELSE jsonb_populate_record(n, jsonb_build_object('person_id', o.person_id, 'person_created_at', o.person_created_at, 'person_updated_at', o.person_updated_at)) IS DISTINCT FROM o
                       END AS fields_changed
                  FROM old_rows o JOIN new_rows n ON n.id = o.id) r
         CROSS JOIN LATERAL (VALUES
           (1, r.old_company, 'employee.deleted', r.id, r.old_person, r.old_company <> r.new_company),
           (2, r.new_company, 'employee.created', r.id, r.new_person, r.old_company <> r.new_company),
           (3, r.new_company, 'employee.updated', r.id, r.new_person, r.old_company = r.new_company AND r.fields_changed),
           (4, r.old_company, 'employee.unlinked', r.id, r.old_person,
               r.old_company = r.new_company AND r.old_person IS NOT NULL AND r.old_person IS DISTINCT FROM r.new_person),
           (5, r.new_company, 'employee.linked', r.id, r.new_person,
               r.old_company = r.new_company AND r.new_person IS NOT NULL AND r.old_person IS DISTINCT FROM r.new_person)
         ) AS x(step, company_id, kind, employee_id, person_id, happened)
         WHERE x.happened) c;
  END IF;
  GET DIAGNOSTICS taken = ROW_COUNT;
  PERFORM set_config('enable_nestloop', nest_loop, true);
  PERFORM change_feed_advance(base, taken, stamp);
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER employees_feed_inserted AFTER INSERT ON employees
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_employee_changes();
CREATE OR REPLACE TRIGGER employees_feed_updated AFTER UPDATE ON employees
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_employee_changes();
CREATE OR REPLACE TRIGGER employees_feed_deleted AFTER DELETE ON employees
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_employee_changes();

-- persons: a person's times (createdAt, updatedAt of Person) changed: person.updated in
-- every company they are employed in. A person deleted: person.erased when erasure
-- deletes them (lookup.erasure, transaction-local, server/privacy/erasure.ts), otherwise
-- person.deleted, in every company this transaction removed an employment of theirs from
-- (their employments go first: the foreign key wants it). A new person makes no change: they
-- enter a company with an employment (employee.created or employee.linked).
CREATE OR REPLACE FUNCTION note_person_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  base bigint;
  stamp timestamptz;
  taken bigint;
  since bigint := nullif(current_setting('lookup.feed_since', true), '')::bigint;
  nest_loop text := current_setting('enable_nestloop');
BEGIN
  IF TG_OP = 'DELETE' AND since IS NULL THEN RETURN NULL; END IF;
  SELECT * INTO base, stamp FROM change_feed_base();
  -- Transition tables joined by hash, not compared pair by pair (as above); each person's
  -- employments are still reached by index (LATERAL). Restored at the end.
  PERFORM set_config('enable_nestloop', 'off', true);
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO changes (position, company_id, kind, employee_id, person_id, changed_at)
    SELECT base + row_number() OVER (), e.company_id, 'person.updated', NULL, n.id, stamp
      FROM old_rows o JOIN new_rows n ON n.id = o.id
     CROSS JOIN LATERAL (SELECT DISTINCT y.company_id FROM employees y WHERE y.person_id = n.id) e
     WHERE (o.created_at, o.updated_at) IS DISTINCT FROM (n.created_at, n.updated_at);
  ELSE
    INSERT INTO changes (position, company_id, kind, employee_id, person_id, changed_at)
    SELECT base + row_number() OVER (), d.company_id,
           CASE WHEN current_setting('lookup.erasure', true) = 'on' THEN 'person.erased' ELSE 'person.deleted' END, NULL, d.person_id, stamp
      FROM (SELECT DISTINCT c.company_id, c.person_id
              FROM changes c JOIN old_rows o ON o.id = c.person_id
             WHERE c.position > since AND c.kind IN ('employee.deleted', 'employee.unlinked')) d;
  END IF;
  GET DIAGNOSTICS taken = ROW_COUNT;
  PERFORM set_config('enable_nestloop', nest_loop, true);
  PERFORM change_feed_advance(base, taken, stamp);
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER persons_feed_updated AFTER UPDATE ON persons
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION note_person_changes();
CREATE OR REPLACE TRIGGER persons_feed_deleted AFTER DELETE ON persons
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_person_changes();

-- companies: deleted (after its employments, each employee.deleted), the last change of
-- its feed. (A company's name is shown by no operation, so renaming it changes nothing.)
CREATE OR REPLACE FUNCTION note_company_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  base bigint;
  stamp timestamptz;
  taken bigint;
BEGIN
  SELECT * INTO base, stamp FROM change_feed_base();
  INSERT INTO changes (position, company_id, kind, employee_id, person_id, changed_at)
  SELECT base + row_number() OVER (), o.id, 'company.deleted', NULL, NULL, stamp FROM old_rows o;
  GET DIAGNOSTICS taken = ROW_COUNT;
  PERFORM change_feed_advance(base, taken, stamp);
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER companies_feed_deleted AFTER DELETE ON companies
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_company_changes();

-- Emptying employees (an operator's teardown, a bench's reload) cannot say what it removed:
-- the feed is emptied and pruned through the head, so every follower is told to re-sync (410).
CREATE OR REPLACE FUNCTION forget_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  base bigint;
  stamp timestamptz;
BEGIN
  SELECT * INTO base, stamp FROM change_feed_base();
  DELETE FROM changes;
  UPDATE change_feed_pruned SET through = base;
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER employees_feed_truncated AFTER TRUNCATE ON employees FOR EACH STATEMENT EXECUTE FUNCTION forget_changes();

-- States that change with time alone: a pending invitation expires at its expiresAt, and
-- the membership status read as of a later instant changes (0008). The feed's clock
-- (server/feed/clock.ts) calls this every few seconds: each pending invitation whose
-- expiry (at the millisecond asOf compares) fell after the last call's instant and at or
-- before this one's is an employee.updated now. Returns how many. Takes the writers' lock
-- like every writer: called with a try-lock taken first, so it never queues behind an import.
CREATE OR REPLACE FUNCTION record_time_changes() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  base bigint;
  stamp timestamptz;
  taken bigint;
  since timestamptz;
  through timestamptz;
BEGIN
  SELECT * INTO base, stamp FROM change_feed_base();
  SELECT time_states_through INTO since FROM change_feed_head;
  through := date_trunc('milliseconds', stamp);
  INSERT INTO changes (position, company_id, kind, employee_id, person_id, changed_at)
  SELECT base + row_number() OVER (ORDER BY e.invitation_expires_at, e.id), e.company_id, 'employee.updated', e.id, e.person_id, stamp
    FROM employees e
   WHERE e.invitation_status = 'pending'
     AND e.invitation_expires_at > since AND e.invitation_expires_at < through + interval '1 millisecond'
     AND date_trunc('milliseconds', e.invitation_expires_at) > since AND date_trunc('milliseconds', e.invitation_expires_at) <= through;
  GET DIAGNOSTICS taken = ROW_COUNT;
  PERFORM change_feed_advance(base, taken, stamp);
  UPDATE change_feed_head SET time_states_through = through;
  RETURN taken;
END
$$;
