// Filter values drawn from the data itself, in its proportions, so that every request asks
// for something that exists among the companies a credential sees: its employments, linked to
// a person (for the person kinds) or not (for Search employees). Deterministic for a seed:
// rows are ordered by a hash of their id, not by random().
import type { Random } from '../../server/dataset/random.js';
import type { Queryable } from '../../server/db/engines/database.js';
import { foldName } from '../../server/domain/names.js';

export interface SampleRow {
  person_id: string;
  first_name: string;
  last_name: string;
  /** E.164, as stored. */
  phone: string;
  company_id: string;
  /** The person's creation for a linked employment, the record's for an unlinked one. */
  created_at: Date;
}

/** Up to `count` employments of `companies`, linked to a person or not. */
export function drawRows(db: Queryable, companies: readonly string[], linked: boolean, { count, seed }: { count: number; seed: number }) {
  return db.query<SampleRow>(
    `SELECT person_id::text AS person_id, first_name, last_name, phone, company_id, ${linked ? 'person_created_at' : 'created_at'} AS created_at
       FROM employees WHERE person_id IS ${linked ? 'NOT ' : ''}NULL AND company_id = ANY($1::text[])
      ORDER BY md5(id::text || $2::text) LIMIT $3`,
    [companies, String(seed), count],
  );
}

/** A 3 to 6 character piece of a name (the whole of a shorter one), as a person types part of it. */
export const namePiece = (random: Random) => (name: string) => {
  const chars = [...name];
  if (chars.length <= 3) return name;
  const length = random.int(3, Math.min(chars.length, 6));
  const start = random.int(0, chars.length - length);
  return chars.slice(start, start + length).join('');
};

const DAY = 86_400_000;

/** One week from the day of `date`, RFC 3339. */
export function weekFrom(date: Date): { createdFrom: string; createdBefore: string } {
  const day = Math.floor(date.getTime() / DAY) * DAY;
  return { createdFrom: new Date(day).toISOString(), createdBefore: new Date(day + 7 * DAY).toISOString() };
}

/** The 3-character fragment the most names contain (folded, as the search matches), and their share: the worst case of a substring search. */
export function mostCommonFragment(names: string[]): { substring: string; share: number } | undefined {
  const counts = new Map<string, number>();
  for (const name of names) {
    const chars = [...foldName(name)];
    const seen = new Set<string>();
    for (let i = 0; i + 3 <= chars.length; i++) seen.add(chars.slice(i, i + 3).join(''));
    for (const fragment of seen) if (!/[\s'-]/.test(fragment)) counts.set(fragment, (counts.get(fragment) ?? 0) + 1);
  }
  const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return top && { substring: top[0], share: top[1] / names.length };
}
