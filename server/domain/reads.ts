// What the person and employee operations ask of the data layer (the port db/reads/
// implements): one call per response, which reads the page and records it in the access
// audit before the page comes back, however the audit is configured (written by the read
// itself, or spooled) and whether or not the read shares a statement with others.
import type { EmployeeFilter } from './employees.js';
import type { FieldSet } from './fieldGroups.js';
import type { PersonFilter } from './persons.js';

/** One result of a page: its id, its place in the operation's order, and its JSON as the database wrote it. */
export interface PageItem {
  id: string;
  /** Its creation instant at microsecond precision (pageCursor.ts SortKey.at). */
  sortAt: string;
  /** The contract's Person or Employee, sent as it is. */
  json: string;
}

/** A page as the operations answer it: one snapshot's instant, its exact total, how many results precede it, and its results in response order. */
export interface Page {
  asOf: string;
  total: number;
  offset: number;
  items: PageItem[];
}

/** Who reads, as the access audit records it: the credential, and what it may read and why, as they were at the read. */
export interface Reader {
  credentialId: string;
  purpose: string;
  fields: FieldSet;
}

export interface LookupReads {
  /** The page of people `filter` selects. */
  searchPersons(filter: PersonFilter, reader: Reader): Promise<Page>;
  /** The person `filter.personId` names, if the credential may see them: a page of at most one (a miss is recorded too). */
  getPerson(filter: PersonFilter, reader: Reader): Promise<Page>;
  /** The page of unlinked employment records `filter` selects. */
  searchEmployees(filter: EmployeeFilter, reader: Reader): Promise<Page>;
}
