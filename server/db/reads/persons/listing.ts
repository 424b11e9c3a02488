// A listing (authorization, company and created range; no name, phone or person filter)
// takes its exact total and finds the days its page falls in from the people rollups
// (server/db/derived): whole UTC days are summed from the rollup, the range's partial first
// and last day counted exactly, and then only the page's days are read, de-duplicated
// and sorted. Buckets are ordered by their UTC day (a partial day is the only bucket of
// its day) and summed as integers; only the few days the page spans are turned into
// instants. (Bounds computed for every day of a three-year range, and numeric running
// sums, were half the time of offset 10,000.)
import type { FilterRules, PersonFilter } from '../../../domain/persons.js';
import { rollupsCanCount } from '../personFilters.js';

/** A people rollup and the key of the rows that count this listing. */
export interface Rollup {
  table: 'people_by_company_day' | 'people_by_credential_day';
  column: 'company_id' | 'credential_id';
  key: string;
}

/**
 * Which people rollup counts a listing: the company's, for one company; the credential's,
 * for several. Undefined when a filter the rollups cannot count is set (of `rules`: the
 * service's filters unless given; personFilters.ts), or the company named is outside the
 * credential.
 */
export function listingRollup(filter: PersonFilter, single: boolean, rules?: FilterRules): Rollup | undefined {
  if (!rollupsCanCount(filter, rules)) return undefined;
  const company = filter.companyId ?? (single ? filter.authorizedCompanies[0] : undefined);
  if (company !== undefined) {
    return filter.authorizedCompanies.includes(company) ? { table: 'people_by_company_day', column: 'company_id', key: company } : undefined;
  }
  return { table: 'people_by_credential_day', column: 'credential_id', key: filter.credentialId };
}

/** SQL placeholders and fragments of the person query that the listing reads. */
export interface ListingParts {
  rollup: Rollup;
  /** Placeholder of the rollup key. */
  scope: string;
  /** The authorized employments, as `e` (FROM items). */
  listed: string;
  /** The conditions every listed employment meets (authorization, company, range). */
  conditions: string;
  /** Placeholders of the range bounds (NULL when unset) and the page size. */
  createdFrom: string;
  createdBefore: string;
  limit: string;
  /**
   * Where the page starts: after the placeholder of an offset, or right after a cursor's
   * key, whose conditions on `e` say which people come after it and which up to it.
   */
  start: { offset: string } | { after: string; upTo: string; at: string };
}

/** The `page` and `total` CTEs (with their helpers) of a listing. */
export function pageAndTotalFromRollups(parts: ListingParts): string {
  const { rollup, scope, listed, conditions, createdFrom, createdBefore, limit, start } = parts;
  // A cursor's page starts after the people up to its key: counted here (whole days from
  // the rollups, the key's own day exactly), they say which days the page spans.
  const offset = 'offset' in start ? start.offset : '(SELECT n FROM before)';
  const cut = 'offset' in start ? `LIMIT ${limit} OFFSET (SELECT ${offset} - before_lo FROM spanned)` : `LIMIT ${limit}`;
  return `
   bounds AS (
     SELECT ${createdFrom}::timestamptz AS lo, ${createdBefore}::timestamptz AS hi,
            utc_day(${createdFrom}::timestamptz) + CASE WHEN utc_midnight(utc_day(${createdFrom}::timestamptz)) = ${createdFrom}::timestamptz THEN 0 ELSE 1 END AS first_whole,
            utc_day(${createdBefore}::timestamptz) AS end_whole
   ),
   partial_days AS (
     SELECT lo, hi FROM bounds WHERE first_whole >= end_whole AND lo < hi
     UNION ALL
     SELECT lo, utc_midnight(first_whole) FROM bounds WHERE NOT coalesce(first_whole >= end_whole, false) AND lo < utc_midnight(first_whole)
     UNION ALL
     SELECT utc_midnight(end_whole), hi FROM bounds WHERE NOT coalesce(first_whole >= end_whole, false) AND utc_midnight(end_whole) < hi
   ),
   buckets AS (
     SELECT r.day, NULL::timestamptz AS lo, NULL::timestamptz AS hi, r.people
       FROM bounds b JOIN ${rollup.table} r ON r.${rollup.column} = ${scope}
        AND (b.first_whole IS NULL OR r.day >= b.first_whole) AND (b.end_whole IS NULL OR r.day < b.end_whole)
      WHERE NOT coalesce(b.first_whole >= b.end_whole, false)
     UNION ALL
     SELECT utc_day(d.lo), d.lo, d.hi, (SELECT count(DISTINCT e.person_id)::integer FROM ${listed}
                                        WHERE ${conditions} AND e.person_created_at >= d.lo AND e.person_created_at < d.hi)
       FROM partial_days d
   ),${'offset' in start ? '' : cursorBefore(listed, conditions, start)}
   running AS (
     SELECT day, lo, hi, people, sum(people) OVER (ORDER BY day) AS through FROM buckets
   ),
   spanned AS (
     SELECT min(coalesce(lo, utc_midnight(day))) AS lo, max(coalesce(hi, utc_midnight(day + 1))) AS hi, min(through - people) AS before_lo
       FROM running WHERE through > ${offset} AND through - people < ${offset} + ${limit}
   ),
   page AS (
     SELECT DISTINCT e.person_created_at AS created_at, e.person_id AS id
       FROM spanned s CROSS JOIN ${listed}
      WHERE ${conditions} AND e.person_created_at >= s.lo AND e.person_created_at < s.hi${'after' in start ? ` AND ${start.after}` : ''}
      ORDER BY 1, 2 ${cut}
   ),
   total AS (SELECT coalesce(sum(people), 0) AS n FROM buckets)`;
}

/** The `before` CTE: how many people come up to a cursor's key (the buckets of earlier days, and its own day's counted exactly). */
function cursorBefore(listed: string, conditions: string, { upTo, at }: { upTo: string; at: string }): string {
  return `
   before AS (
     SELECT coalesce((SELECT sum(people) FROM buckets WHERE day < utc_day(${at}::timestamptz)), 0)
          + (SELECT count(DISTINCT e.person_id) FROM ${listed}
              WHERE ${conditions} AND e.person_created_at >= utc_midnight(utc_day(${at}::timestamptz)) AND ${upTo}) AS n
   ),`;
}
