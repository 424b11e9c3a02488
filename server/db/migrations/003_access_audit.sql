-- The access audit: which credential retrieved which people, when, through which person
-- operation. One entry per response (a search page, or a Get person), written before the
-- response is sent (server/access/auditWriter.ts). Ids only, never a personal value.
CREATE TABLE access_audit (
  -- The instant of the read the response was built from (its asOf).
  at                  timestamptz NOT NULL,
  -- No foreign key: an entry must never fail to be written, and outlives what it names.
  credential_id       uuid NOT NULL,
  operation           text NOT NULL CHECK (operation IN ('searchPersons', 'getPerson')),
  -- The people the response held, in response order; empty for an empty page or a 404.
  person_ids          uuid[] NOT NULL,
  -- A person asked for by id (Get person, or a search by personId) whom the response did
  -- not hold: the credential could not see them, or they do not exist. Attempts count.
  not_found_person_id uuid
);
-- "Who retrieved this person": GIN files each id of an entry's array.
CREATE INDEX access_audit_person_ids ON access_audit USING gin (person_ids);
CREATE INDEX access_audit_not_found ON access_audit (not_found_person_id) WHERE not_found_person_id IS NOT NULL;
-- "What did this credential retrieve", in time order.
CREATE INDEX access_audit_credential_at ON access_audit (credential_id, at);
-- Retention: entries arrive in time order, so a block range index finds the expired ones
-- at the table's start for next to nothing per insert (a btree would add one more).
CREATE INDEX access_audit_at ON access_audit USING brin (at);

-- Append-only. Entries are never changed; they are deleted only by the retention job,
-- which marks its own transaction (SET LOCAL lookup.access_audit_retention = 'on').
-- This guards against mistakes in code and by hand; a database role that may disable
-- triggers can still do anything, so grant the service's role no more than it needs.
CREATE FUNCTION refuse_access_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR current_setting('lookup.access_audit_retention', true) IS DISTINCT FROM 'on' THEN
    RAISE EXCEPTION 'the access audit is append-only: entries cannot be changed, and are deleted only by the retention job (AUDIT_RETENTION_DAYS)';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER access_audit_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON access_audit
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_access_audit_change();
