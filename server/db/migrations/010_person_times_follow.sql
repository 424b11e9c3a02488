-- Each employment carries copies of its person's created_at (001) and updated_at (006),
-- so that a page is read one row per employment. Imports only add persons, but a plain
-- SQL update of a person row would leave those copies stale: Get person would show an
-- old updatedAt, and a new createdAt would be out of step with the sort, the people
-- rollups and the name pieces. So a person's updated_at is copied on to its employments
-- as it changes, and its created_at, which all of those are ordered and counted by, is
-- refused a change (like an employment's, 004).
CREATE FUNCTION refuse_person_creation_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a person''s creation time cannot change (its employments are sorted, counted and indexed by it; see migration 010)';
END
$$;
CREATE TRIGGER persons_created_at_kept BEFORE UPDATE OF created_at ON persons
  FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at) EXECUTE FUNCTION refuse_person_creation_change();

CREATE FUNCTION copy_person_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE employees SET person_updated_at = NEW.updated_at WHERE person_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER persons_updated_at_copied AFTER UPDATE OF updated_at ON persons
  FOR EACH ROW WHEN (OLD.updated_at IS DISTINCT FROM NEW.updated_at) EXECUTE FUNCTION copy_person_updated_at();
