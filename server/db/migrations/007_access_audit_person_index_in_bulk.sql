-- The person index of the access audit is kept up in bulk, off the request path. A GIN
-- index files each id of an entry separately, and filing them one statement at a time was
-- most of what the audit cost a search page. With a large pending list, a new entry's ids
-- are appended to the list, and the list is merged into the index in one sorted pass:
-- by the service's housekeeping job (server/access/housekeeping.ts), by (auto)vacuum, or,
-- should it fill, by the insert that fills it. Lookups stay exact meanwhile: they read the
-- pending list as well as the index. The limit is in kB; it bounds that extra read.
ALTER INDEX access_audit_person_ids SET (fastupdate = on, gin_pending_list_limit = 65536);
