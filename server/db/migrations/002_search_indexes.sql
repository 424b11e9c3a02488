-- Measured at 1M people: a company id inside the trigram and phone indexes made the
-- planner descend those indexes once per authorized company (100-2,000 times for a
-- broad credential) and pick a trigram index even for company-only listing. The
-- selective index now carries only its own column; the company check is a hashed
-- filter on the few rows it returns, and company-only work uses the btree below.
DROP INDEX IF EXISTS employees_first_name_trgm;
DROP INDEX IF EXISTS employees_last_name_trgm;
DROP INDEX IF EXISTS employees_phone;
CREATE INDEX employees_first_name_trgm ON employees USING gin (first_name_folded gin_trgm_ops) WHERE person_id IS NOT NULL;
CREATE INDEX employees_last_name_trgm ON employees USING gin (last_name_folded gin_trgm_ops) WHERE person_id IS NOT NULL;
CREATE INDEX employees_phone ON employees (phone) WHERE person_id IS NOT NULL;
