-- Credential lifecycle: expiry, token rotation with an overlap, last use, and changes of
-- a credential's companies that every running instance follows exactly.
--
-- Company sets. A running instance caches a credential (CREDENTIAL_CACHE_MS) with its
-- company list, and a person query reads that list together with rows keyed by the
-- credential in credential_companies and people_by_credential_day. If a change rewrote
-- those rows in place, an instance still holding the old list would mix the two: a
-- listing's total and the days its page falls in from the new companies, its people from
-- the old ones. So a credential's companies are an immutable set: granting or revoking
-- makes a new set under a new id, the credential points at it, and the old set is kept
-- (rows and rollup) until no cache can still hold it. From here on the `credential_id`
-- of credential_companies and people_by_credential_day names a company set; a
-- credential's first set has the credential's own id, so whatever creates credentials
-- (import, CLI, bench loader) keeps writing them as before.
ALTER TABLE credentials
  ADD COLUMN company_set_id uuid,
  -- The credential stops working at this instant (NULL: never).
  ADD COLUMN expires_at timestamptz,
  -- After `rotate --overlap`, the replaced token keeps working until its valid_until.
  ADD COLUMN previous_token_hash bytea UNIQUE,
  ADD COLUMN previous_token_valid_until timestamptz,
  -- Recorded by the service at most once a minute per instance, never on the request path.
  ADD COLUMN last_used_at timestamptz,
  ADD COLUMN previous_token_last_used_at timestamptz,
  ADD CONSTRAINT credentials_previous_token_bounded CHECK ((previous_token_hash IS NULL) = (previous_token_valid_until IS NULL));

UPDATE credentials SET company_set_id = id;
ALTER TABLE credentials ALTER COLUMN company_set_id SET NOT NULL;

CREATE FUNCTION credential_first_company_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.company_set_id := coalesce(NEW.company_set_id, NEW.id);
  RETURN NEW;
END
$$;
CREATE TRIGGER credentials_first_company_set BEFORE INSERT ON credentials
  FOR EACH ROW EXECUTE FUNCTION credential_first_company_set();

-- A set's rows no longer belong to a credentials row (a replaced set has an id of its own).
DO $$
DECLARE fk text;
BEGIN
  FOR fk IN SELECT conname FROM pg_constraint
             WHERE conrelid = 'credential_companies'::regclass AND contype = 'f' AND confrelid = 'credentials'::regclass LOOP
    EXECUTE format('ALTER TABLE credential_companies DROP CONSTRAINT %I', fk);
  END LOOP;
END
$$;

-- Sets a credential no longer points at, removed (with their rollup, by the recount
-- trigger on credential_companies) by the service's housekeeping once every cache that
-- could hold them has expired.
CREATE TABLE replaced_company_sets (
  id            uuid PRIMARY KEY,
  -- Whose set it was (no foreign key: bookkeeping must not stand in the way of emptying credentials).
  credential_id uuid NOT NULL,
  replaced_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX replaced_company_sets_replaced_at ON replaced_company_sets (replaced_at);
