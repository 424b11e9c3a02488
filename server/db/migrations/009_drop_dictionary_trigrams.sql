-- Since 008, fragments of three or more characters go through the name pieces and
-- shorter ones through the short-fragment indexes (007): no query matches the
-- dictionaries by LIKE any more, so their trigram indexes (003) are only kept up to date.
DROP INDEX folded_last_names_trgm;
DROP INDEX folded_first_names_trgm;
