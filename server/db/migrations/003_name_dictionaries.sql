-- Name substring search, measured at 1M people (1.5M employments): a trigram index over
-- employees finds every employment whose name contains the fragment, but each candidate
-- must then be fetched from the heap to recheck it and to read its company and person:
-- 46,000 random heap reads, 750 ms, for "son" in one large company. There are far fewer
-- distinct names (39,000 last and 13,000 first names in that dataset), so the fragment
-- is matched against a dictionary of distinct folded names instead, and the employments
-- bearing the matching names come out of a btree that carries everything the search
-- needs (company, person, creation order, the other name) without touching the heap:
-- 17 ms for the same search.
CREATE TABLE folded_last_names (folded text PRIMARY KEY);
CREATE TABLE folded_first_names (folded text PRIMARY KEY);
INSERT INTO folded_last_names SELECT DISTINCT last_name_folded FROM employees;
INSERT INTO folded_first_names SELECT DISTINCT first_name_folded FROM employees;
CREATE INDEX folded_last_names_trgm ON folded_last_names USING gin (folded gin_trgm_ops);
CREATE INDEX folded_first_names_trgm ON folded_first_names USING gin (folded gin_trgm_ops);

-- The dictionaries follow employees by trigger, whatever writes them (import, COPY,
-- psql), once per statement. A name no longer used stays: it only costs a lookup.
CREATE FUNCTION add_folded_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO folded_last_names SELECT DISTINCT last_name_folded FROM written ON CONFLICT DO NOTHING;
  INSERT INTO folded_first_names SELECT DISTINCT first_name_folded FROM written ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER employees_names_inserted AFTER INSERT ON employees
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION add_folded_names();
CREATE TRIGGER employees_names_updated AFTER UPDATE ON employees
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION add_folded_names();

DROP INDEX employees_first_name_trgm;
DROP INDEX employees_last_name_trgm;
-- The employments of the matching names, within a company or across them, index-only.
CREATE INDEX employees_last_name ON employees (last_name_folded, company_id, person_created_at, person_id)
  INCLUDE (first_name_folded) WHERE person_id IS NOT NULL;
CREATE INDEX employees_first_name ON employees (first_name_folded, company_id, person_created_at, person_id)
  INCLUDE (last_name_folded) WHERE person_id IS NOT NULL;
