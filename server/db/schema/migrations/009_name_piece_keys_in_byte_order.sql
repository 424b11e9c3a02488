-- The name pieces' pieces and company ids compare as bytes (collation "C"). They are only
-- ever compared for equality, where every deterministic collation agrees, but an index
-- sorts by its collation: in the database's own (C.UTF-8, en_US.UTF-8, ...) each comparison
-- of two keys calls the C library's strcoll, in "C" it is a memcmp, and the sort can
-- compare short prefixes first. Building the primary keys, which an initial load does over
-- millions of entries, took about a third less CPU (docs/performance.md); each change's
-- upkeep and each search compares fewer bytes' worth of work too.
--
-- The person-order indexes keep apart from the primary keys by their own collation, which
-- only the person-order search names: "POSIX", the same byte order under another name (it
-- was "C", which is now the columns' own, so every search would have been offered them).
--
-- Changing a column's collation rewrites no row, but rebuilds the indexes holding it:
-- searches wait for this migration (about a minute at a million people).
DROP INDEX last_name_pieces_by_person;
DROP INDEX first_name_pieces_by_person;
ALTER TABLE last_name_pieces
  ALTER COLUMN piece TYPE text COLLATE "C",
  ALTER COLUMN company_id TYPE text COLLATE "C";
ALTER TABLE first_name_pieces
  ALTER COLUMN piece TYPE text COLLATE "C",
  ALTER COLUMN company_id TYPE text COLLATE "C";
CREATE INDEX last_name_pieces_by_person ON last_name_pieces (piece COLLATE "POSIX", person_created_at, person_id)
  INCLUDE (company_id, last_name_folded, first_name_folded);
CREATE INDEX first_name_pieces_by_person ON first_name_pieces (piece COLLATE "POSIX", person_created_at, person_id)
  INCLUDE (company_id, first_name_folded);
