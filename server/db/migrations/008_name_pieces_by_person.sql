-- The name pieces in person order as well. A fragment searched over (nearly) every company
-- matches tens of thousands of entries; read company by company (the primary key's order)
-- they have to be sorted before their people can be counted once each. Read in person order
-- from this index they come out sorted: the page is their first people and the total one
-- pass that counts each person once, with no sort. The entry's company is included, so a
-- credential is checked on the entry against the companies it does not hold, and the
-- names, so that the rest of the fragment is checked there too: the read stays index-only.
-- server/db/persons.ts decides which order a search reads. The piece is keyed here under
-- collation "C", which for equality is the column's own (both compare bytes), and which
-- only the person-order search names (`piece COLLATE "C" = ...`). So the planner offers this
-- index to that search alone: one read company by company keeps the primary key, whatever
-- the statistics say (without this, a credential of 100 companies could be planned as
-- every entry of the piece checked against its 100 companies).
CREATE INDEX last_name_pieces_by_person ON last_name_pieces (piece COLLATE "C", person_created_at, person_id)
  INCLUDE (company_id, last_name_folded, first_name_folded);
CREATE INDEX first_name_pieces_by_person ON first_name_pieces (piece COLLATE "C", person_created_at, person_id)
  INCLUDE (company_id, first_name_folded, last_name_folded);
