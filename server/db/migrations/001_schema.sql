-- The source records behind the person operations. Column names follow the
-- contract's fields; every lookup the person operations make has an index here.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE TABLE companies (
  id   text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$'),
  name text NOT NULL
);

CREATE TABLE persons (
  id         uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX persons_created_at_id ON persons (created_at, id);

CREATE TABLE employees (
  id                uuid PRIMARY KEY,
  company_id        text NOT NULL REFERENCES companies (id),
  person_id         uuid REFERENCES persons (id),
  -- Copy of persons.created_at (immutable), so that "people of these companies in
  -- creation order" is one index range scan instead of a join over every employment.
  person_created_at timestamptz,
  first_name        text NOT NULL,
  last_name         text NOT NULL,
  -- NFC-normalized, lower-cased names (folded in the application, identically for
  -- PostgreSQL and PGlite whatever their locale), searched by substring.
  first_name_folded text NOT NULL,
  last_name_folded  text NOT NULL,
  date_of_birth     date NOT NULL,
  gender            text,
  email             text NOT NULL,
  phone             text NOT NULL CHECK (phone ~ '^\+[1-9][0-9]{1,14}$'),
  address_line1     text NOT NULL,
  address_line2     text,
  city              text NOT NULL,
  state             text NOT NULL,
  postal_code       text NOT NULL,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  CHECK ((person_id IS NULL) = (person_created_at IS NULL))
);
-- Employments of one person (Get person, and assembling a page of people).
CREATE INDEX employees_person ON employees (person_id, created_at, id) WHERE person_id IS NOT NULL;
-- People of a set of companies in creation order: listing, created range, offset.
CREATE INDEX employees_company_person_created ON employees (company_id, person_created_at, person_id) WHERE person_id IS NOT NULL;
-- Phone equality (E.164).
CREATE INDEX employees_phone ON employees (phone, company_id) WHERE person_id IS NOT NULL;
-- Name substrings, alone or within one company.
CREATE INDEX employees_first_name_trgm ON employees USING gin (first_name_folded gin_trgm_ops, company_id) WHERE person_id IS NOT NULL;
CREATE INDEX employees_last_name_trgm ON employees USING gin (last_name_folded gin_trgm_ops, company_id) WHERE person_id IS NOT NULL;

CREATE TABLE external_ids (
  employee_id uuid NOT NULL REFERENCES employees (id),
  system      text NOT NULL,
  system_id   text NOT NULL,
  PRIMARY KEY (employee_id, system, system_id)
);

CREATE TABLE memberships (
  employee_id uuid PRIMARY KEY REFERENCES employees (id),
  status      text NOT NULL CHECK (status IN ('active', 'revoked'))
);

CREATE TABLE invitations (
  employee_id uuid PRIMARY KEY REFERENCES employees (id),
  status      text NOT NULL CHECK (status IN ('pending', 'accepted', 'revoked')),
  invited_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);

CREATE TABLE linked_users (
  employee_id uuid PRIMARY KEY REFERENCES employees (id),
  status      text NOT NULL CHECK (status IN ('active', 'deactivated'))
);

-- At most one participation and one coverage per employment in this version: the
-- selection among several plan programs is pending upstream.
CREATE TABLE participations (
  employee_id uuid PRIMARY KEY REFERENCES employees (id),
  decision    text CHECK (decision IN ('opt_in', 'opt_out')),
  decided_at  timestamptz
);

CREATE TABLE coverages (
  employee_id uuid PRIMARY KEY REFERENCES employees (id),
  status      text NOT NULL CHECK (status IN ('enrolled', 'enrolled_not_paying', 'awaiting_coverage', 'waived', 'terminated')),
  starts_at   timestamptz NOT NULL,
  ends_at     timestamptz,
  plan_tier   text
);

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
