-- Room on every page of employments for a changed copy of a row. Most daily changes of an
-- employment (its address, e-mail, statuses) touch no indexed column; with room on its
-- page PostgreSQL writes the new version there and no index entry at all (a HOT update),
-- where a full page would take a new entry in each of the seven indexes. Pages written
-- from now on keep the room; rows stored before keep their pages until the table is
-- rewritten (docs/operating/import.md says how).
ALTER TABLE employees SET (fillfactor = 85);
