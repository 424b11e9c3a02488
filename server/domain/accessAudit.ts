// The access audit as the person and employee operations see it: every response that
// shows people or their employment records records who asked, for whom and when. How an
// entry is made durable is the configured mode's (server/access/auditWriter.ts): written by
// the read's own statement, or appended to this instance's spool before the response is
// sent; the data layer's reads (server/db/reads/auditedReads.ts) do either.
import type { FieldSet } from './fieldGroups.js';

export type AuditedOperation = 'searchPersons' | 'getPerson' | 'searchEmployees';

/** One response's entry. Its ids come from PostgreSQL or the validated request: UUIDs. */
export interface SpooledEntry {
  /** The response's asOf. */
  at: string;
  credentialId: string;
  operation: AuditedOperation;
  /** The credential's purpose and field groups as they were at the read. */
  purpose: string;
  fields: FieldSet;
  /** The people the response held, in its order. */
  personIds: readonly string[];
  /** A person asked for by id whom the response did not hold. */
  notFoundPersonId?: string;
  /** The employment records with no person the response held, in its order (Search employees). */
  employeeIds?: readonly string[];
}

/**
 * The entry the person query writes in the statement that reads the response: the entry
 * commits with the read or neither happens (server/db/reads/).
 */
export interface AuditInStatement {
  credentialId: string;
  operation: AuditedOperation;
  /** The credential's purpose and field groups as they were at the read. */
  purpose: string;
  fields: FieldSet;
  /** false: the commit does not wait for the disk flush (AUDIT_DURABILITY=commit). */
  synchronousCommit: boolean;
}

/** Where entries are appended before answering (the spool, server/access/auditSpool.ts). */
export interface AuditAppender {
  /** Resolves once the entry is kept; rejects (the request fails) if it could not be. */
  append(entry: SpooledEntry): Promise<void>;
}

/** How the person operations record their responses; neither set: auditing is off. */
export interface AccessAudit {
  /**
   * How a person operation's own query writes its entry, in the statement that reads the
   * response (commit, flush).
   */
  readonly inStatement?: { synchronousCommit: boolean };
  /** Where the operation appends its entry before answering (spool). */
  readonly spool?: AuditAppender;
}
