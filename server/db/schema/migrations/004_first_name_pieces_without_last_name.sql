-- First-name pieces no longer carry the last name. An entry now says: some linked
-- employment of this person in this company bears this first name. A change of last name
-- (the most common change of a name) then leaves a person's first-name entries as they
-- are, where before every one of them was deleted and inserted again. The first-name
-- pieces then lead only a search that gives no last name; one giving a first name of three
-- or more characters and a shorter last name goes through the first-name dictionary,
-- whose names are now indexed by their pieces too (server/db/nameRoutes.ts).
-- The entries are made again from the employments, then keyed, as an initial load does.
TRUNCATE first_name_pieces;
-- (Drops the primary key and first_name_pieces_by_person, which hold the column.)
ALTER TABLE first_name_pieces DROP COLUMN last_name_folded;
INSERT INTO first_name_pieces (piece, company_id, person_created_at, person_id, first_name_folded)
SELECT substr(b.first_name_folded, s, 3), b.company_id, b.person_created_at, b.person_id, b.first_name_folded
  FROM (SELECT DISTINCT company_id, person_created_at, person_id, first_name_folded FROM employees WHERE person_id IS NOT NULL) b
 CROSS JOIN generate_series(1, length(b.first_name_folded) - 2) AS s
 WHERE strpos(b.first_name_folded, substr(b.first_name_folded, s, 3)) = s;
ALTER TABLE first_name_pieces ADD PRIMARY KEY (piece, company_id, person_created_at, person_id, first_name_folded);
CREATE INDEX first_name_pieces_by_person ON first_name_pieces (piece COLLATE "C", person_created_at, person_id)
  INCLUDE (company_id, first_name_folded);
CREATE INDEX first_name_dictionary_pieces ON first_name_dictionary USING gin (name_pieces(folded));
