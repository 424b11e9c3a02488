-- The baseline schema: the source tables the operator's imports write, then the derived
-- data kept from them (server/db/derived/README.md lists each derived structure, its
-- source, what maintains it and its invariant). Later changes come as new migrations;
-- server/db/structure.sql is the schema they produce (tests/server/migrations.test.ts).

-- ============================================================================
-- Source tables. Column names follow the contract's fields.
-- ============================================================================

CREATE TABLE companies (
  id   text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$'),
  name text NOT NULL
);

CREATE TABLE persons (
  id         uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- What the employments' copies of these times refer to (employees_person).
  CONSTRAINT persons_times UNIQUE (id, created_at, updated_at)
);

-- One employment (an Employee object). Its membership, invitation, linked user,
-- participation and coverage are at most one each and stored as its columns, its
-- external ids as a list, and its person's times are copied onto it, so a page of people
-- reads one row per employment (server/db/employmentColumns.ts maps the import's fields).
CREATE TABLE employees (
  id                       uuid PRIMARY KEY,
  company_id               text NOT NULL REFERENCES companies (id),
  person_id                uuid,
  -- Copies of the person's created_at and updated_at, kept equal by the foreign key
  -- employees_person and by follow_person_times below.
  person_created_at        timestamptz,
  person_updated_at        timestamptz,
  first_name               text NOT NULL,
  last_name                text NOT NULL,
  -- The names folded for search (server/domain/names.ts foldName), written with them.
  first_name_folded        text NOT NULL,
  last_name_folded         text NOT NULL,
  date_of_birth            date NOT NULL,
  gender                   text,
  email                    text NOT NULL,
  phone                    text NOT NULL CHECK (phone ~ '^\+[1-9][0-9]{1,14}$'),
  address_line1            text NOT NULL,
  address_line2            text,
  city                     text NOT NULL,
  state                    text NOT NULL,
  postal_code              text NOT NULL,
  -- [{"system", "system_id"}], distinct, ordered by system then system_id (code point order).
  external_ids             jsonb NOT NULL DEFAULT '[]',
  membership_status        text CHECK (membership_status IN ('active', 'revoked')),
  invitation_status        text CHECK (invitation_status IN ('pending', 'accepted', 'revoked')),
  invitation_invited_at    timestamptz,
  invitation_expires_at    timestamptz,
  linked_user_status       text CHECK (linked_user_status IN ('active', 'deactivated')),
  has_participation        boolean NOT NULL DEFAULT false,
  participation_decision   text CHECK (participation_decision IN ('opt_in', 'opt_out')),
  participation_decided_at timestamptz,
  coverage_status          text CHECK (coverage_status IN ('enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated')),
  coverage_starts_at       timestamptz,
  coverage_ends_at         timestamptz,
  coverage_plan_tier       text,
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL,
  CONSTRAINT employees_person_times CHECK ((person_id IS NULL) = (person_created_at IS NULL) AND (person_id IS NULL) = (person_updated_at IS NULL)),
  -- The copies are the person's own times, whoever writes either table. Checked at commit,
  -- so that a statement changing a person's times can bring the copies along first.
  CONSTRAINT employees_person FOREIGN KEY (person_id, person_created_at, person_updated_at)
    REFERENCES persons (id, created_at, updated_at) DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT employees_invitation_complete CHECK ((invitation_status IS NULL) = (invitation_invited_at IS NULL) AND (invitation_status IS NULL) = (invitation_expires_at IS NULL)),
  CONSTRAINT employees_participation_complete CHECK (has_participation OR (participation_decision IS NULL AND participation_decided_at IS NULL)),
  CONSTRAINT employees_coverage_complete CHECK ((coverage_status IS NULL) = (coverage_starts_at IS NULL))
);
-- Employments of one person: Get person, assembling a page of people, and the derived
-- data's upkeep (an affected person's employments).
CREATE INDEX employees_person ON employees (person_id, created_at, id) WHERE person_id IS NOT NULL;
-- Every employment of a company, linked or not: a whole-company snapshot, deleting a company.
CREATE INDEX employees_company ON employees (company_id);
-- People of a set of companies in creation order: listing, created range, offset.
CREATE INDEX employees_company_person_created ON employees (company_id, person_created_at, person_id) WHERE person_id IS NOT NULL;
-- Phone equality (E.164).
CREATE INDEX employees_phone ON employees (phone) WHERE person_id IS NOT NULL;
-- The employments bearing a folded name, within a company or across them, index-only
-- (names found through the name dictionaries, and whether anyone still bears a name).
CREATE INDEX employees_last_name ON employees (last_name_folded, company_id, person_created_at, person_id)
  INCLUDE (first_name_folded) WHERE person_id IS NOT NULL;
CREATE INDEX employees_first_name ON employees (first_name_folded, company_id, person_created_at, person_id)
  INCLUDE (last_name_folded) WHERE person_id IS NOT NULL;

-- Credentials: only a SHA-256 of the token is stored.
CREATE TABLE credentials (
  id         uuid PRIMARY KEY,
  name       text NOT NULL,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE credential_companies (
  credential_id uuid NOT NULL REFERENCES credentials (id) ON DELETE CASCADE,
  company_id    text NOT NULL REFERENCES companies (id),
  PRIMARY KEY (credential_id, company_id)
);
-- Which credentials a company concerns.
CREATE INDEX credential_companies_company ON credential_companies (company_id);

-- ============================================================================
-- Derived data: a cache of the source tables (server/db/derived/README.md).
-- ============================================================================

-- One writer of source data at a time. Every writer takes this lock before it brings the
-- derived data up to date (the triggers below), and an import holds it for its whole
-- transaction: each writer then sees what the one before it committed, so the derived
-- data stays exact under concurrent writers. Readers never take it.
CREATE FUNCTION lock_data_writers() RETURNS void LANGUAGE sql AS $$ SELECT pg_advisory_xact_lock(728302) $$;
-- Taken before a statement touches a row, so that a plain-SQL writer queues behind an
-- import instead of holding rows the import waits for (a deadlock PostgreSQL would break
-- by aborting one of them).
CREATE FUNCTION lock_data_writers_first() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lock_data_writers();
  RETURN NULL;
END
$$;

CREATE FUNCTION utc_day(t timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$ SELECT (t AT TIME ZONE 'UTC')::date $$;
CREATE FUNCTION utc_midnight(d date) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$ SELECT d::timestamp AT TIME ZONE 'UTC' $$;

-- The distinct three-character pieces of a folded name (none for a name shorter than three).
CREATE FUNCTION name_pieces(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(name, start, 3)), '{}') FROM generate_series(1, length(name) - 2) AS start
$$;
-- The distinct fragments of one and two characters of a folded name.
CREATE FUNCTION short_fragments(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(name, start, size)), '{}')
    FROM generate_series(1, 2) AS size, generate_series(1, length(name) - size + 1) AS start
$$;

-- Name dictionaries: the distinct folded names of linked employments. A fragment of one
-- or two characters holds no name piece: the names holding it are found here, by the
-- short-fragment index, and their employments by employees_last_name/_first_name.
CREATE TABLE last_name_dictionary (folded text PRIMARY KEY);
CREATE TABLE first_name_dictionary (folded text PRIMARY KEY);
CREATE INDEX last_name_dictionary_short ON last_name_dictionary USING gin (short_fragments(folded));
CREATE INDEX first_name_dictionary_short ON first_name_dictionary USING gin (short_fragments(folded));

-- Name pieces: every linked employment filed under each three-character piece of its
-- folded name, with what a search reads (company, person, creation time, both names). A
-- fragment of three or more characters holds its first three, so its matches are one
-- index range per company, read index-only. An entry says: some employment of this
-- person in this company bears these names (two such employments share their entries).
CREATE TABLE last_name_pieces (
  piece             text NOT NULL,
  company_id        text NOT NULL,
  person_created_at timestamptz NOT NULL,
  person_id         uuid NOT NULL,
  last_name_folded  text NOT NULL,
  first_name_folded text NOT NULL,
  PRIMARY KEY (piece, company_id, person_created_at, person_id, last_name_folded, first_name_folded)
);
CREATE TABLE first_name_pieces (
  piece             text NOT NULL,
  company_id        text NOT NULL,
  person_created_at timestamptz NOT NULL,
  person_id         uuid NOT NULL,
  last_name_folded  text NOT NULL,
  first_name_folded text NOT NULL,
  PRIMARY KEY (piece, company_id, person_created_at, person_id, first_name_folded, last_name_folded)
);

-- People rollups: per UTC day of person creation, how many distinct people a company (and
-- a credential, over all its companies) has. A listing sums whole days from them.
CREATE TABLE people_by_company_day (
  company_id text NOT NULL,
  day        date NOT NULL,
  people     integer NOT NULL CHECK (people >= 0),
  PRIMARY KEY (company_id, day)
);
CREATE TABLE people_by_credential_day (
  credential_id uuid NOT NULL,
  day           date NOT NULL,
  people        integer NOT NULL CHECK (people >= 0),
  PRIMARY KEY (credential_id, day)
);

-- ---------------------------------------------------------------------------
-- Upkeep on any change of employees (insert, update, delete; import, COPY or plain SQL),
-- once per statement. The changed rows that matter (linked, and for an update only where
-- the company, person, person's creation time or a folded name changed) are noted, old
-- and new. For every person they concern, what the person bore before the statement
-- (their employments now, less the new rows, plus the old ones) and after it (their
-- employments now) is set side by side, and each structure writes only the difference:
-- exact, at a cost in proportion to the change.
-- ---------------------------------------------------------------------------
CREATE FUNCTION follow_employment_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  noted bigint;
  hash_join text := current_setting('enable_hashjoin');
  merge_join text := current_setting('enable_mergejoin');
BEGIN
  PERFORM lock_data_writers();
  IF to_regclass('pg_temp.employment_changes') IS NULL THEN
    -- side: 'o' an old row, 'n' a new one.
    CREATE TEMP TABLE employment_changes (
      side "char" NOT NULL, id uuid NOT NULL, company_id text NOT NULL, person_id uuid NOT NULL,
      person_created_at timestamptz NOT NULL, last_name_folded text NOT NULL, first_name_folded text NOT NULL);
    -- side: 'b' before the statement, 'a' after it; one row per (company, creation time, person, names) borne.
    CREATE TEMP TABLE employment_states (
      side "char" NOT NULL, company_id text NOT NULL, person_created_at timestamptz NOT NULL, person_id uuid NOT NULL,
      last_name_folded text NOT NULL, first_name_folded text NOT NULL);
  END IF;
  TRUNCATE employment_changes, employment_states;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO employment_changes
    SELECT 'n', id, company_id, person_id, person_created_at, last_name_folded, first_name_folded FROM new_rows WHERE person_id IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO employment_changes
    SELECT 'o', id, company_id, person_id, person_created_at, last_name_folded, first_name_folded FROM old_rows WHERE person_id IS NOT NULL;
  ELSE
    INSERT INTO employment_changes
    SELECT s.*
      FROM old_rows o JOIN new_rows n ON n.id = o.id
     CROSS JOIN LATERAL (VALUES ('o'::"char", o.id, o.company_id, o.person_id, o.person_created_at, o.last_name_folded, o.first_name_folded),
                                ('n'::"char", n.id, n.company_id, n.person_id, n.person_created_at, n.last_name_folded, n.first_name_folded))
           AS s(side, id, company_id, person_id, person_created_at, last_name_folded, first_name_folded)
     WHERE (o.company_id, o.person_id, o.person_created_at, o.last_name_folded, o.first_name_folded)
           IS DISTINCT FROM (n.company_id, n.person_id, n.person_created_at, n.last_name_folded, n.first_name_folded)
       AND s.person_id IS NOT NULL;
  END IF;
  GET DIAGNOSTICS noted = ROW_COUNT;
  IF noted = 0 THEN RETURN NULL; END IF;
  IF noted > 1000 THEN ANALYZE employment_changes; END IF;

  INSERT INTO employment_states
  WITH affected AS (SELECT DISTINCT person_id FROM employment_changes),
  -- (LATERAL: each person's employments by index, never a scan of all employments.)
  now_borne AS (
    SELECT e.id, e.company_id, e.person_created_at, e.person_id, e.last_name_folded, e.first_name_folded
      FROM affected a CROSS JOIN LATERAL (SELECT * FROM employees y WHERE y.person_id = a.person_id) e
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
  CREATE TEMP TABLE IF NOT EXISTS name_pieces_gone (side "char", piece text, company_id text, person_created_at timestamptz, person_id uuid, last_name_folded text, first_name_folded text);
  TRUNCATE name_pieces_gone;
  INSERT INTO name_pieces_gone
  WITH gone AS (
    SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM employment_states WHERE side = 'b'
    EXCEPT
    SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM employment_states WHERE side = 'a'
  )
  SELECT 'l', p, g.* FROM gone g CROSS JOIN unnest(name_pieces(g.last_name_folded)) AS p
  UNION ALL
  SELECT 'f', p, g.* FROM gone g CROSS JOIN unnest(name_pieces(g.first_name_folded)) AS p;
  -- From here on, joins with the big tables go by their indexes (nested loops from the
  -- few changed keys), never by a scan of every entry or bucket; restored at the end.
  PERFORM set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true);
  DELETE FROM last_name_pieces y USING name_pieces_gone g
   WHERE g.side = 'l' AND y.piece = g.piece AND y.company_id = g.company_id AND y.person_created_at = g.person_created_at AND y.person_id = g.person_id
     AND y.last_name_folded = g.last_name_folded AND y.first_name_folded = g.first_name_folded;
  DELETE FROM first_name_pieces y USING name_pieces_gone g
   WHERE g.side = 'f' AND y.piece = g.piece AND y.company_id = g.company_id AND y.person_created_at = g.person_created_at AND y.person_id = g.person_id
     AND y.first_name_folded = g.first_name_folded AND y.last_name_folded = g.last_name_folded;
  WITH came AS (
    SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM employment_states WHERE side = 'a'
    EXCEPT
    SELECT company_id, person_created_at, person_id, last_name_folded, first_name_folded FROM employment_states WHERE side = 'b'
  ),
  last_came AS (INSERT INTO last_name_pieces
                SELECT p, c.company_id, c.person_created_at, c.person_id, c.last_name_folded, c.first_name_folded
                  FROM came c CROSS JOIN unnest(name_pieces(c.last_name_folded)) AS p ORDER BY 1, 2, 3, 4, 5, 6)
  INSERT INTO first_name_pieces
  SELECT p, c.company_id, c.person_created_at, c.person_id, c.last_name_folded, c.first_name_folded
    FROM came c CROSS JOIN unnest(name_pieces(c.first_name_folded)) AS p ORDER BY 1, 2, 3, 4, 6, 5;

  -- People rollups: a person counts once per (company, day), and once per (credential,
  -- day) over the credential's companies; only those whose presence changed move a count.
  CREATE TEMP TABLE IF NOT EXISTS rollup_deltas (credential boolean, key text, day date, delta integer);
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
CREATE TRIGGER employees_locked BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON employees
  FOR EACH STATEMENT EXECUTE FUNCTION lock_data_writers_first();
CREATE TRIGGER persons_locked BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON persons
  FOR EACH STATEMENT EXECUTE FUNCTION lock_data_writers_first();
CREATE TRIGGER credential_companies_locked BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON credential_companies
  FOR EACH STATEMENT EXECUTE FUNCTION lock_data_writers_first();
CREATE TRIGGER employees_inserted AFTER INSERT ON employees
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION follow_employment_changes();
CREATE TRIGGER employees_updated AFTER UPDATE ON employees
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION follow_employment_changes();
CREATE TRIGGER employees_deleted AFTER DELETE ON employees
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION follow_employment_changes();

-- Emptying employees empties everything derived from it.
CREATE FUNCTION forget_derived_data() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE last_name_dictionary, first_name_dictionary, last_name_pieces, first_name_pieces, people_by_company_day, people_by_credential_day;
  RETURN NULL;
END
$$;
CREATE TRIGGER employees_truncated AFTER TRUNCATE ON employees FOR EACH STATEMENT EXECUTE FUNCTION forget_derived_data();

-- A person's times reach the copies on their employments in the same statement (the
-- employments' own upkeep then follows a changed creation time).
CREATE FUNCTION follow_person_times() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER persons_times_copied AFTER UPDATE ON persons
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION follow_person_times();

-- A credential's rollup, counted from scratch (its companies changed, or a rebuild).
CREATE FUNCTION recount_credential_people(credentials uuid[]) RETURNS void LANGUAGE plpgsql AS $$
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
CREATE FUNCTION follow_credential_companies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lock_data_writers();
  PERFORM recount_credential_people(array_agg(DISTINCT credential_id)) FROM changed;
  RETURN NULL;
END
$$;
CREATE TRIGGER credential_companies_added AFTER INSERT ON credential_companies
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION follow_credential_companies();
CREATE TRIGGER credential_companies_removed AFTER DELETE ON credential_companies
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION follow_credential_companies();

-- Every derived structure, emptied and rebuilt from the source tables. A bulk load that
-- writes employees with the triggers disabled runs it afterwards (bench/dataset/loadPostgres.ts);
-- the tests compare the kept structures with it.
CREATE FUNCTION rebuild_derived_data() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lock_data_writers();
  TRUNCATE last_name_dictionary, first_name_dictionary, last_name_pieces, first_name_pieces, people_by_company_day, people_by_credential_day;
  INSERT INTO last_name_dictionary SELECT DISTINCT last_name_folded FROM employees WHERE person_id IS NOT NULL ORDER BY 1;
  INSERT INTO first_name_dictionary SELECT DISTINCT first_name_folded FROM employees WHERE person_id IS NOT NULL ORDER BY 1;
  INSERT INTO last_name_pieces
  SELECT DISTINCT p, e.company_id, e.person_created_at, e.person_id, e.last_name_folded, e.first_name_folded
    FROM employees e CROSS JOIN unnest(name_pieces(e.last_name_folded)) AS p
   WHERE e.person_id IS NOT NULL ORDER BY 1, 2, 3, 4, 5, 6;
  INSERT INTO first_name_pieces
  SELECT DISTINCT p, e.company_id, e.person_created_at, e.person_id, e.last_name_folded, e.first_name_folded
    FROM employees e CROSS JOIN unnest(name_pieces(e.first_name_folded)) AS p
   WHERE e.person_id IS NOT NULL ORDER BY 1, 2, 3, 4, 6, 5;
  INSERT INTO people_by_company_day (company_id, day, people)
  SELECT company_id, utc_day(person_created_at), count(DISTINCT person_id) FROM employees WHERE person_id IS NOT NULL GROUP BY 1, 2;
  -- Every key credential_companies holds (a credential's, or whatever later keys it).
  PERFORM recount_credential_people(array_agg(DISTINCT credential_id)) FROM credential_companies;
END
$$;
