-- A credential reads only the field groups its purpose needs, and says what that purpose
-- is (docs/decisions/0019-field-groups-and-purposes.md). Both are required of every
-- writer: no default is left on either column, so a credential is never created reading
-- everything by omission.
--
-- `fields` names the groups of server/domain/fieldGroups.ts, in that order. `all` is
-- stored expanded, so a group added in a later release is granted to nobody silently:
-- an operator grants it (set-fields). Credentials that existed before this migration
-- read every group, as they did; the list below is the groups as of this release, and
-- stays so. Their purpose says it was never given, and `credentials list` marks them
-- for review.
ALTER TABLE credentials ADD COLUMN fields text[] NOT NULL
  DEFAULT ARRAY['name', 'dateOfBirth', 'gender', 'email', 'phone', 'address', 'externalIds', 'membership', 'participation', 'coverage'];
ALTER TABLE credentials ADD COLUMN purpose text NOT NULL DEFAULT 'not recorded (created before purposes)';
ALTER TABLE credentials ALTER COLUMN fields DROP DEFAULT;
ALTER TABLE credentials ALTER COLUMN purpose DROP DEFAULT;
-- Mistakes of a writer in plain SQL: no group at all, a blank purpose or one past the
-- commands' 500 characters (the one rule is server/domain/credentials.ts).
ALTER TABLE credentials ADD CONSTRAINT credentials_fields_named CHECK (cardinality(fields) > 0);
ALTER TABLE credentials ADD CONSTRAINT credentials_purpose_given
  CHECK (purpose ~ '\S' AND char_length(purpose) <= 500);

-- Each entry records why the read was allowed: the credential's purpose and field groups
-- as they were at the read (a later set-purpose or set-fields does not rewrite history).
-- NULL on entries written before this migration. Added without a default: no rewrite of
-- the table, and its append-only trigger is not involved.
ALTER TABLE access_audit ADD COLUMN purpose text;
ALTER TABLE access_audit ADD COLUMN fields text[];
