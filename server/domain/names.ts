// Name search is a case-insensitive, Unicode-aware substring match. Both stored names
// and queries are folded here, in one place, rather than by the database's lower(),
// whose Unicode handling depends on the database locale (PGlite and a C-locale
// PostgreSQL would only lower-case ASCII).

/** NFC-normalized lower case: "ÉMILE", "Émile" and "E\u0301mile" all fold to "émile". */
export function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}
