// Filter values drawn from the data itself, in its proportions, so that every request asks
// for something that exists among the companies a credential sees. Deterministic for a seed:
// rows are ordered by a hash of their id, not by random().
import { Random } from '../../server/dataset/random.js';
import type { Queryable } from '../../server/db/engines/database.js';
import { foldName } from '../../server/domain/names.js';

export interface FilterSamples {
  /** The companies the samples were drawn from (a credential's). */
  companies: readonly string[];
  lastNames: string[];
  /** A 3+ character piece of an existing last name, as typed (case as stored). */
  lastNameSubstrings: string[];
  firstLastPairs: { firstName: string; lastName: string }[];
  /** E.164, as stored. */
  phones: string[];
  companyLastNames: { companyId: string; lastName: string }[];
  personIds: string[];
  /** One week from an existing person's creation day. RFC 3339. */
  createdRanges: { createdFrom: string; createdBefore: string }[];
  /** The most frequent 3-character fragments of (folded) last names, most frequent first. */
  commonSubstrings: { substring: string; share: number }[];
}

interface SampleRow {
  person_id: string;
  first_name: string;
  last_name: string;
  last_name_folded: string;
  phone: string;
  company_id: string;
  person_created_at: Date;
}

const DAY = 86_400_000;

/** `count` values per kind, fewer where the companies hold fewer employments. */
export async function drawSamples(db: Queryable, companies: readonly string[], { count = 1_000, seed = 1 } = {}): Promise<FilterSamples> {
  const rows = await db.query<SampleRow>(
    `SELECT e.person_id::text AS person_id, e.first_name, e.last_name, e.last_name_folded, e.phone, e.company_id, e.person_created_at
       FROM employees e
      WHERE e.person_id IS NOT NULL AND e.company_id = ANY($1::text[])
      ORDER BY md5(e.id::text || $2::text)
      LIMIT $3`,
    [companies, String(seed), count],
  );
  if (!rows.length) throw new Error(`no linked employments in companies ${companies.slice(0, 3).join(', ')}…: nothing to sample`);
  const substring = namePiece(new Random(seed));
  return {
    companies,
    lastNames: rows.map((r) => r.last_name),
    lastNameSubstrings: rows.map((r) => substring(r.last_name)),
    firstLastPairs: rows.map((r) => ({ firstName: r.first_name, lastName: r.last_name })),
    phones: rows.map((r) => r.phone),
    companyLastNames: rows.map((r) => ({ companyId: r.company_id, lastName: r.last_name })),
    personIds: rows.map((r) => r.person_id),
    createdRanges: rows.map((r) => weekFrom(r.person_created_at)),
    commonSubstrings: commonFragments(rows.map((r) => r.last_name_folded)),
  };
}

/** A 3 to 6 character piece of a name (the whole of a shorter one), as a person types part of it. */
export const namePiece = (random: Random) => (name: string) => {
  const chars = [...name];
  if (chars.length <= 3) return name;
  const length = random.int(3, Math.min(chars.length, 6));
  const start = random.int(0, chars.length - length);
  return chars.slice(start, start + length).join('');
};

/** One week from the day of `date`, RFC 3339. */
export function weekFrom(date: Date): { createdFrom: string; createdBefore: string } {
  const day = Math.floor(date.getTime() / DAY) * DAY;
  return { createdFrom: new Date(day).toISOString(), createdBefore: new Date(day + 7 * DAY).toISOString() };
}

/** 3-character fragments by the share of names that contain them. */
function commonFragments(foldedNames: string[]): { substring: string; share: number }[] {
  const counts = new Map<string, number>();
  for (const name of foldedNames) {
    const chars = [...foldName(name)];
    const seen = new Set<string>();
    for (let i = 0; i + 3 <= chars.length; i++) seen.add(chars.slice(i, i + 3).join(''));
    for (const fragment of seen) if (!/[\s'-]/.test(fragment)) counts.set(fragment, (counts.get(fragment) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 10)
    .map(([substring, n]) => ({ substring, share: n / foldedNames.length }));
}
