-- Exact totals without counting every match, measured at 1M people: listing one large
-- company counted 173,000 index entries per request (54 ms), and 100 companies also
-- de-duplicated 132,000 people and sorted them to reach offset 10,000 (160 ms). These
-- rollups hold, per UTC day of person creation, how many distinct people a company (and
-- a credential, over all its companies) has; a listing sums whole days from them, counts
-- only the partial first and last day of a created range exactly, and finds which days
-- its page falls in, so it de-duplicates and sorts only those days' people.
CREATE FUNCTION utc_day(t timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$ SELECT (t AT TIME ZONE 'UTC')::date $$;
CREATE FUNCTION utc_midnight(d date) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$ SELECT d::timestamp AT TIME ZONE 'UTC' $$;

CREATE TABLE people_by_company_day (
  company_id text NOT NULL,
  day        date NOT NULL,
  people     integer NOT NULL,
  PRIMARY KEY (company_id, day)
);
CREATE TABLE people_by_credential_day (
  credential_id uuid NOT NULL,
  day           date NOT NULL,
  people        integer NOT NULL,
  PRIMARY KEY (credential_id, day)
);
-- Which credentials a new employment's company concerns.
CREATE INDEX credential_companies_company ON credential_companies (company_id);

-- Every credential's rollup, counted from scratch (credentials created, bulk loads).
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

-- Both rollups, counted from scratch: after a bulk load with the triggers off, or to repair.
CREATE FUNCTION recount_all_people() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM people_by_company_day;
  INSERT INTO people_by_company_day (company_id, day, people)
  SELECT e.company_id, utc_day(e.person_created_at), count(DISTINCT e.person_id)
    FROM employees e WHERE e.person_id IS NOT NULL
   GROUP BY 1, 2;
  PERFORM recount_credential_people(array_agg(id)) FROM credentials;
END
$$;

-- New employments add the people they bring into a company (and into a credential) on
-- their day: those with no earlier employment there. Additive, so imports of any size
-- cost in proportion to what they add; one writer at a time, so two imports adding the
-- same person to the same company cannot both count them (each statement after the lock
-- sees what the previous writer committed).
CREATE FUNCTION add_people_of_new_employments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(728302);
  INSERT INTO people_by_company_day AS r (company_id, day, people)
  SELECT w.company_id, utc_day(w.person_created_at), count(DISTINCT w.person_id)
    FROM written w
   WHERE w.person_id IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM employees e
                      WHERE e.person_id = w.person_id AND e.company_id = w.company_id
                        AND NOT EXISTS (SELECT 1 FROM written n WHERE n.id = e.id))
   GROUP BY 1, 2
  ON CONFLICT (company_id, day) DO UPDATE SET people = r.people + excluded.people;

  INSERT INTO people_by_credential_day AS r (credential_id, day, people)
  SELECT cc.credential_id, utc_day(w.person_created_at), count(DISTINCT w.person_id)
    FROM written w
    JOIN credential_companies cc ON cc.company_id = w.company_id
   WHERE w.person_id IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM employees e
                       JOIN credential_companies o ON o.credential_id = cc.credential_id AND o.company_id = e.company_id
                      WHERE e.person_id = w.person_id
                        AND NOT EXISTS (SELECT 1 FROM written n WHERE n.id = e.id))
   GROUP BY 1, 2
  ON CONFLICT (credential_id, day) DO UPDATE SET people = r.people + excluded.people;
  RETURN NULL;
END
$$;
CREATE TRIGGER employees_people_added AFTER INSERT ON employees
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION add_people_of_new_employments();

-- Employments are only ever added (imports add records). Moving one to another person,
-- company or creation time, or deleting it, would need the rollups recounted, so it is
-- refused rather than left to make totals silently wrong.
CREATE FUNCTION refuse_employment_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'employments are append-only: their person, company and creation time cannot change, nor can they be deleted (the people rollups count them; see migration 004)';
END
$$;
CREATE TRIGGER employees_people_kept BEFORE UPDATE OF person_id, company_id, person_created_at OR DELETE ON employees
  FOR EACH ROW EXECUTE FUNCTION refuse_employment_change();

-- Emptying employees empties what counts them.
CREATE FUNCTION forget_all_people() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM people_by_company_day;
  DELETE FROM people_by_credential_day;
  RETURN NULL;
END
$$;
CREATE TRIGGER employees_truncated AFTER TRUNCATE ON employees FOR EACH STATEMENT EXECUTE FUNCTION forget_all_people();

CREATE FUNCTION recount_people_of_changed_credentials() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(728302);
  PERFORM recount_credential_people(array_agg(DISTINCT credential_id)) FROM changed;
  RETURN NULL;
END
$$;
CREATE TRIGGER credential_companies_added AFTER INSERT ON credential_companies
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recount_people_of_changed_credentials();
CREATE TRIGGER credential_companies_removed AFTER DELETE ON credential_companies
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION recount_people_of_changed_credentials();

-- Everything the triggers of migrations 003 and 004 keep, rebuilt in bulk: for a load
-- that writes employees with those triggers disabled (bench/dataset/loadPostgres.ts).
CREATE FUNCTION rebuild_derived_data() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO folded_last_names SELECT DISTINCT last_name_folded FROM employees ON CONFLICT DO NOTHING;
  INSERT INTO folded_first_names SELECT DISTINCT first_name_folded FROM employees ON CONFLICT DO NOTHING;
  PERFORM recount_all_people();
END
$$;

SELECT recount_all_people();
