// Keyset paging (docs/decisions/0021-cursor-pagination.md): a page's `pagination.next` names
// the last result it held by its place in the operation's order (a creation instant and an
// id), so the next page starts right after it whatever came or went in between. The cursor
// is bound to the filters it was made for by a fingerprint of their values as the search
// compares them (a name folded, a phone in E.164): sent with other filters it would start
// a page of one search at a place in another's order.
import { createHash } from 'node:crypto';
import { ApiError } from '../errors.js';
import { canonicalUuid, storedInstant } from './formats.js';

/** The searches that page by cursor, each in its own order. */
export type CursorKind = 'persons' | 'employees';

/** A result's place in its operation's order: its creation instant as the database wrote it (microseconds, UTC) and its id. */
export interface SortKey {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ` */
  at: string;
  id: string;
}

/** Where a page asked for by cursor starts: after this key, in the database's terms. */
export interface PageStart {
  /** The instant as both database engines read it (formats.ts storedInstant). */
  at: string;
  id: string;
}

const SORT_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const KIND_LETTER: Record<CursorKind, string> = { persons: 'p', employees: 'e' };

interface CursorBody {
  /** The kind's letter. */
  k: string;
  /** The last result's SortKey.at and id. */
  a: string;
  i: string;
  /** The fingerprint of the filters. */
  f: string;
}

/** A fingerprint of a search's filter values (undefined ones left out), in the order given. */
export function filterFingerprint(kind: CursorKind, values: Readonly<Record<string, string | undefined>>): string {
  const set = Object.entries(values).filter(([, value]) => value !== undefined);
  return createHash('sha256')
    .update(JSON.stringify([kind, set]))
    .digest('base64url')
    .slice(0, 16);
}

/** The cursor of the page after one that ended with `last`. */
export function encodeCursor(kind: CursorKind, last: SortKey, fingerprint: string): string {
  const body: CursorBody = { k: KIND_LETTER[kind], a: last.at, i: last.id, f: fingerprint };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

const problem = (message: string) => new ApiError('invalid_request', [{ path: '/body/cursor', message }]);

/**
 * Where the page `cursor` asks for starts, for a search of this kind whose filters have
 * this fingerprint; invalid_request naming `cursor` when it is not one this service made,
 * or was made for other filters, or comes with an offset.
 */
export function pageStartOf(cursor: string, kind: CursorKind, fingerprint: string, offset: number): PageStart {
  if (offset > 0) throw problem('cursor cannot be combined with an offset above 0: send one or the other');
  const body = parse(cursor);
  const at = body?.k === KIND_LETTER[kind] && typeof body.a === 'string' && SORT_AT.test(body.a) ? storedInstant(body.a) : undefined;
  const id = body && typeof body.i === 'string' ? canonicalUuid(body.i) : undefined;
  if (at === undefined || id === undefined) throw problem('cursor is not one this operation gave: send pagination.next back as it came');
  if (body?.f !== fingerprint) throw problem('cursor was made for other filters: send the filters of the search it came from, or start again without it');
  return { at, id };
}

function parse(cursor: string): Partial<CursorBody> | undefined {
  try {
    const body: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Partial<CursorBody>) : undefined;
  } catch {
    return undefined;
  }
}

/** The cursor of the page after `page`, or null where no result follows it. */
export function nextCursor(
  kind: CursorKind,
  fingerprint: string,
  page: { total: number; offset: number; items: readonly { id: string; sortAt: string }[] },
): string | null {
  const last = page.items.at(-1);
  return last && page.offset + page.items.length < page.total ? encodeCursor(kind, { at: last.sortAt, id: last.id }, fingerprint) : null;
}
