-- The baseline: every table, index and constraint of the schema as of the first release.
--
-- Read in order: the helper functions the tables and queries are defined with, the source
-- tables (what an import writes), the derived tables (a cache of the source tables), and
-- the access audit. How the derived tables follow the source tables (trigger functions,
-- triggers, the writers' lock, rebuild) is not here: it is the repeatable upkeep source,
-- server/db/derived/upkeep.sql, which the migrator applies after the migrations whenever
-- it changes. server/db/structure.sql is what all of it produces (`npm run db:structure`),
-- and docs/contributing/database.md says how to change any of it.

-- ============================================================================
-- Helpers. They decide what stored rows mean (the day a person is counted under, what
-- a name piece is) or back an index, so they change only by a migration that also
-- rebuilds what was stored with them. That is why they live here and not in the
-- repeatable upkeep, which may be replaced at any time without touching a row.
-- ============================================================================

-- The UTC day of an instant, and the instant a UTC day starts: the rollups' day keys.
CREATE FUNCTION utc_day(t timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$ SELECT (t AT TIME ZONE 'UTC')::date $$;
CREATE FUNCTION utc_midnight(d date) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$ SELECT d::timestamp AT TIME ZONE 'UTC' $$;

-- The distinct three-character pieces of a folded name (none for a name shorter than
-- three): what the name-piece tables file a name under. The upkeep computes the same
-- pieces inline, without a function call per name.
CREATE FUNCTION name_pieces(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(name, start, 3)), '{}') FROM generate_series(1, length(name) - 2) AS start
$$;
-- The distinct fragments of one and two characters of a folded name (the name
-- dictionaries' index expression).
CREATE FUNCTION short_fragments(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(name, start, size)), '{}')
    FROM generate_series(1, 2) AS size, generate_series(1, length(name) - size + 1) AS start
$$;

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
-- reads one row per employment (server/domain/employment.ts declares its fields).
CREATE TABLE employees (
  id                       uuid PRIMARY KEY,
  company_id               text NOT NULL REFERENCES companies (id),
  person_id                uuid,
  -- Copies of the person's created_at and updated_at, kept equal by the foreign key
  -- employees_person and by the upkeep (follow_person_times).
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

-- ============================================================================
-- Credentials. Only a SHA-256 of a token is stored.
-- ============================================================================

CREATE TABLE credentials (
  id                          uuid PRIMARY KEY,
  name                        text NOT NULL,
  token_hash                  bytea NOT NULL UNIQUE,
  created_at                  timestamptz NOT NULL DEFAULT now(),
  revoked_at                  timestamptz,
  -- The credential's current company set (see credential_companies); its first set has
  -- the credential's own id, filled in on insert by credentials_first_company_set.
  company_set_id              uuid NOT NULL,
  -- The credential stops working at this instant (NULL: never).
  expires_at                  timestamptz,
  -- After `rotate --overlap`, the replaced token keeps working until its valid_until.
  previous_token_hash         bytea UNIQUE,
  previous_token_valid_until  timestamptz,
  -- Recorded by the service at most once a minute per instance, never on the request path.
  last_used_at                timestamptz,
  previous_token_last_used_at timestamptz,
  CONSTRAINT credentials_previous_token_bounded CHECK ((previous_token_hash IS NULL) = (previous_token_valid_until IS NULL))
);

-- So that whatever creates credentials (import, CLI, bench loader) need not know about
-- company sets: a new credential's first set is named by its own id.
CREATE FUNCTION credential_first_company_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.company_set_id := coalesce(NEW.company_set_id, NEW.id);
  RETURN NEW;
END
$$;
CREATE TRIGGER credentials_first_company_set BEFORE INSERT ON credentials
  FOR EACH ROW EXECUTE FUNCTION credential_first_company_set();

-- The companies of a company set; `credential_id` names the set, not a credential row.
-- A running instance caches a credential (CREDENTIAL_CACHE_MS) with its company list,
-- and a person query reads that list together with rows keyed by the set here and in
-- people_by_credential_day. Were a set rewritten in place, an instance holding the old
-- list would mix the two (a listing's total from the new companies, its people from the
-- old). So a set never changes: granting or revoking makes a new set under a new id, the
-- credential points at it, and the old set is kept until no cache can still hold it.
-- Hence no foreign key to credentials: a replaced set has an id of its own.
CREATE TABLE credential_companies (
  credential_id uuid NOT NULL,
  company_id    text NOT NULL REFERENCES companies (id),
  PRIMARY KEY (credential_id, company_id)
);
-- Which credentials a company concerns.
CREATE INDEX credential_companies_company ON credential_companies (company_id);

-- Sets a credential no longer points at, removed (with their rollup, by the upkeep on
-- credential_companies) by the service's housekeeping once every cache that could hold
-- them has expired.
CREATE TABLE replaced_company_sets (
  id            uuid PRIMARY KEY,
  -- Whose set it was (no foreign key: bookkeeping must not stand in the way of emptying credentials).
  credential_id uuid NOT NULL,
  replaced_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX replaced_company_sets_replaced_at ON replaced_company_sets (replaced_at);

-- ============================================================================
-- Derived tables: a cache of the source tables, so that the person query reads few rows.
-- Kept by server/db/derived/upkeep.sql; server/db/derived/README.md lists each one, its
-- source and its invariant (it equals a rebuild from scratch).
-- ============================================================================

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
-- The same entries in person order. A fragment searched over (nearly) every company
-- matches tens of thousands of entries; read company by company (the primary key's order)
-- they must be sorted before their people can be counted once each, read in person order
-- they come out sorted. Company and names are included so that the credential and the
-- rest of the fragment are checked on the entry: the read stays index-only. The piece is
-- keyed under collation "C", which for equality is the column's own (both compare bytes)
-- and which only the person-order search names (`piece COLLATE "C" = ...`), so the planner
-- offers this index to that search alone (server/db/persons.ts decides which order a
-- search reads).
CREATE INDEX last_name_pieces_by_person ON last_name_pieces (piece COLLATE "C", person_created_at, person_id)
  INCLUDE (company_id, last_name_folded, first_name_folded);
CREATE INDEX first_name_pieces_by_person ON first_name_pieces (piece COLLATE "C", person_created_at, person_id)
  INCLUDE (company_id, first_name_folded, last_name_folded);

-- People rollups: per UTC day of person creation, how many distinct people a company (and
-- a company set, over all its companies) has. A listing sums whole days from them.
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

-- ============================================================================
-- The access audit: which credential retrieved which people, when, through which person
-- operation. One entry per response (a search page, or a Get person), written before the
-- response is sent (server/access/auditWriter.ts). Ids only, never a personal value.
-- ============================================================================

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
-- "Who retrieved this person": GIN files each id of an entry's array. Filing them one
-- statement at a time was most of what the audit cost a search page, so new ids go to a
-- large pending list, merged into the index in one sorted pass by the service's
-- housekeeping (server/access/housekeeping.ts), by (auto)vacuum, or by the insert that
-- fills it. Lookups stay exact meanwhile (they read the list too); the limit, in kB,
-- bounds that extra read.
CREATE INDEX access_audit_person_ids ON access_audit USING gin (person_ids) WITH (fastupdate = on, gin_pending_list_limit = 65536);
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

-- The audit's spool files (AUDIT_DURABILITY=spool, server/access/auditSpool.ts): each
-- instance appends its entries to a file of its own and ships them here in batches. A
-- file's row says how far it is shipped; a batch's entries and the new offset commit
-- together, so a crash between them can neither repeat nor drop an entry. The row is made
-- before the file's first entry, so a spool directory shared by instances of other
-- databases is told apart: a file without a row here is not this database's.
CREATE TABLE access_audit_spools (
  name          text PRIMARY KEY,
  -- Bytes of the file (whole lines) whose entries are in access_audit.
  shipped_bytes bigint NOT NULL DEFAULT 0 CHECK (shipped_bytes >= 0)
);
