-- Search employees (draft, docs/decisions/0018-search-employees.md) reads the employment
-- records with no person link. They are a few percent of the employments, so partial
-- indexes over them alone stay small: an update of a linked employment never touches
-- them (and every column they hold is indexed already, so no update loses HOT for them),
-- and the person search, whose conditions say person_id IS NOT NULL, cannot use them.
--
-- Company by company in created order, holding every column a filter reads: a page of one
-- company is read in its order, and the names, phone and created range are checked on the
-- index entries, as is the count of the total.
CREATE INDEX employees_unlinked ON employees (company_id, created_at, id)
  INCLUDE (first_name_folded, last_name_folded, phone) WHERE person_id IS NULL;
-- A phone picks out a handful of records, whatever the companies.
CREATE INDEX employees_unlinked_phone ON employees (phone) WHERE person_id IS NULL;

-- The access audit names the employment records a Search employees response held: they
-- have no person to name. Person entries keep an empty array, which costs no index entry.
ALTER TABLE access_audit ADD COLUMN employee_ids uuid[] NOT NULL DEFAULT '{}';
ALTER TABLE access_audit DROP CONSTRAINT access_audit_operation_check;
ALTER TABLE access_audit ADD CONSTRAINT access_audit_operation_check
  CHECK (operation IN ('searchPersons', 'getPerson', 'searchEmployees'));
-- "Who retrieved this employment record": over the employee search's entries alone, with a
-- pending list as the person index has (merged by the same housekeeping).
CREATE INDEX access_audit_employee_ids ON access_audit USING gin (employee_ids)
  WITH (fastupdate = on, gin_pending_list_limit = 65536) WHERE operation = 'searchEmployees';
