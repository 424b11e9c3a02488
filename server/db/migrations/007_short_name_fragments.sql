-- A name fragment of one or two characters holds no trigram, so the dictionaries'
-- trigram indexes (003) cannot narrow it down: PostgreSQL reads the whole trigram index
-- and rechecks every name (15 ms for "lê" over 39,000 last names, in the reusable plan
-- the service runs). Such fragments are real searches (Lê, Hà, Đỗ, Wu, Li), so each name
-- is also indexed by every fragment of one and two characters it contains.
CREATE FUNCTION short_fragments(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(name, start, size)), '{}')
    FROM generate_series(1, 2) AS size, generate_series(1, length(name) - size + 1) AS start
$$;
CREATE INDEX folded_last_names_short ON folded_last_names USING gin (short_fragments(folded));
CREATE INDEX folded_first_names_short ON folded_first_names USING gin (short_fragments(folded));
