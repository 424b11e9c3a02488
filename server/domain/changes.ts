// The change feed (docs/decisions/0022-change-feed.md): what a company's followers read,
// change by change, in commit order. A change names what changed by ids and a kind, never
// by a value: a follower re-reads the record through Get person or Search employees.
// Positions are the database's (migration 007); outside the service they are cursors
// (changeCursor.ts), opaque.

/** Every kind of change the feed records (server/db/derived/upkeep.sql writes them). */
export const changeKinds = [
  'employee.created',
  'employee.updated',
  'employee.deleted',
  'employee.linked',
  'employee.unlinked',
  'person.updated',
  'person.deleted',
  'person.erased',
  'company.deleted',
] as const;

export type ChangeKind = (typeof changeKinds)[number];

/** One change as the database holds it; `position` is its place in the whole feed. */
export interface StoredChange {
  position: bigint;
  kind: ChangeKind;
  employeeId: string | null;
  personId: string | null;
  /** RFC 3339, milliseconds, UTC. */
  changedAt: string;
}

/** One page of a company's changes, read in one snapshot. */
export interface ChangePage {
  asOf: string;
  changes: StoredChange[];
  /** The position the next page starts after: the last change's, or on a page that is not full the feed's head as the snapshot saw it. */
  next: bigint;
}

/** What the feed answers: a page, or that the changes after `after` are pruned (410 resync_required). */
export type ChangeRead = { page: ChangePage } | { pruned: true };

/** What Get changes asks of the data layer (db/reads/changes.ts). */
export interface ChangeFeed {
  /** Up to `limit` of `companyId`'s changes after `after` (undefined: from the oldest retained). */
  read(companyId: string, after: bigint | undefined, limit: number): Promise<ChangeRead>;
}
