-- The access audit's spool files (AUDIT_DURABILITY=spool, server/access/auditSpool.ts):
-- each instance appends its entries to a file of its own and ships them here in batches.
-- A file's row says how far it is shipped; the batch's entries and the new offset commit
-- together, so a crash between them can neither repeat nor drop an entry. The row is made
-- before the file's first entry, so a spool directory shared by instances of other
-- databases is told apart: a file without a row here is not this database's.
CREATE TABLE access_audit_spools (
  name          text PRIMARY KEY,
  -- Bytes of the file (whole lines) whose entries are in access_audit.
  shipped_bytes bigint NOT NULL DEFAULT 0 CHECK (shipped_bytes >= 0)
);
