// The rows every read statement returns, and the one reading of them: a statement answers
// one or more asks (a search is one; coalesced lookups are many), each with a page, and
// returns a row per result on each page, in response order, or one row with no result for
// a page that holds none but whose total is known. Every row carries the statement's
// asOf (sqlParts.ts pageRowColumns writes them).
import type { Page } from '../../domain/reads.js';

export interface PageRow {
  as_of: string;
  /** The ask the row answers, from 1; null on the one row of a statement whose asks matched nothing. */
  ask: number | string | null;
  total: number | string | null;
  /** How many results precede the page. */
  page_offset: number | string | null;
  /** The result: its id, its place in the order (SortKey.at) and its JSON; null on a page's row without one. */
  item_id: string | null;
  sort_at: string | null;
  item: string | null;
}

/**
 * Each ask's page (in the asks' order), all at the statement's asOf. An ask no row answers
 * matched nothing: an empty page with a total of 0 after the offset it asked for.
 */
export function pagesOf(rows: readonly PageRow[], asks: readonly { offset: number }[]): Page[] {
  const asOf = rows[0]!.as_of;
  const pages: Page[] = asks.map(({ offset }) => ({ asOf, total: 0, offset, items: [] }));
  for (const row of rows) {
    if (row.ask === null) continue;
    const page = pages[Number(row.ask) - 1]!;
    page.total = Number(row.total);
    page.offset = Number(row.page_offset);
    if (row.item !== null) page.items.push({ id: row.item_id!, sortAt: row.sort_at!, json: row.item });
  }
  return pages;
}
