// How the access audit is written. The person operations write their entry in their own
// query's statement (server/db/persons.ts): the read and its entry are one transaction, and
// the rows reach the service only once it has committed (with AUDIT_DURABILITY=flush, also
// flushed to disk), so a crash of the service can lose only entries of responses that were
// never sent, and a response costs one round trip.
import type { AuditDurability } from '../config.js';

export interface AccessAudit {
  /**
   * How a person operation's own query writes its entry, in the statement that reads the
   * response. Undefined when the audit is off.
   */
  readonly inStatement?: { synchronousCommit: boolean };
}

/** The audit as configured: `commit` returns before PostgreSQL flushed the entry to disk; `flush` after. */
export const auditInStatement = (durability: AuditDurability): AccessAudit => ({
  inStatement: { synchronousCommit: durability === 'flush' },
});

/** AUDIT_ENABLED=false (refused in production): nothing is recorded. */
export const auditOff: AccessAudit = {};
