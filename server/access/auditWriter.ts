// How the access audit is written, and why no entry of a response that was sent is lost
// in each AUDIT_DURABILITY mode:
// - spool (the default on PostgreSQL): the operation appends the entry to this instance's
//   spool file with a synchronous write before the response is built (auditSpool.ts); a
//   failed write fails the request (503). A written line is in the kernel's page cache, so
//   a crash of the service cannot lose it; the shipper (auditShipper.ts) moves it into
//   access_audit within SHIP_INTERVAL_MS, exactly once, and a crashed instance's file is
//   shipped by the next instance on the directory. The read query writes nothing.
// - commit (the default on PGlite) and flush: the person query writes the entry in its own
//   statement (server/db/reads/): the read and its entry are one transaction, and the
//   rows reach the service only once it has committed (flush: also flushed to disk), so a
//   crash of the service can lose only entries of responses that were never sent.
import type { AuditDurability } from '../config.js';
import type { AccessAudit } from '../domain/accessAudit.js';
import type { AuditSpool } from './auditSpool.js';

/** The audit as configured: `commit` returns before PostgreSQL flushed the entry to disk; `flush` after. */
export const auditInStatement = (durability: Exclude<AuditDurability, 'spool'>): AccessAudit => ({
  inStatement: { synchronousCommit: durability === 'flush' },
});

/** AUDIT_DURABILITY=spool: entries go to the spool file the shipper empties. */
export const auditSpooled = (spool: AuditSpool): AccessAudit => ({ spool });

/** AUDIT_ENABLED=false (refused in production): nothing is recorded. */
export const auditOff: AccessAudit = {};
