// The contract's response bodies of the person and employee operations, written around
// the Person and Employee objects the database built as JSON text (db/reads/employeeJson.ts),
// which are sent untouched: the page's pagination with its next cursor, and which field
// groups the credential was not granted (absent where it was granted every one).
import { type CursorKind, nextCursor } from '../domain/pageCursor.js';
import type { SearchScope } from '../domain/persons.js';
import type { Page } from '../domain/reads.js';

/** `,"withheld":[...]` where groups are withheld, else nothing. */
const withheldJson = (withheld: readonly string[]) => (withheld.length ? `,"withheld":${JSON.stringify(withheld)}` : '');

export const getPersonResponseJson = (asOf: string, personJson: string, withheld: readonly string[]) =>
  `{"asOf":"${asOf}","person":${personJson}${withheldJson(withheld)}}`;

/** A search's response: its results under `listKey`, its pagination, what was withheld. */
export function searchResponseJson(kind: CursorKind, page: Page, scope: Pick<SearchScope, 'limit' | 'fingerprint'>, withheld: readonly string[]): string {
  const next = nextCursor(kind, scope.fingerprint, page);
  const pagination = `{"limit":${scope.limit},"offset":${page.offset},"total":${page.total},"next":${next === null ? 'null' : `"${next}"`}}`;
  return `{"asOf":"${page.asOf}","${kind}":[${page.items.map((item) => item.json).join(',')}],"pagination":${pagination}${withheldJson(withheld)}}`;
}
