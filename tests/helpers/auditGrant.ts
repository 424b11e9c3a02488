// Which access-audit entries record the credential's purpose and field groups at the read
// (decision 0019). Entries of AUDIT_DURABILITY=spool (PostgreSQL's default) do: the
// operation puts them in the spooled line. Entries written by the read statement itself
// (commit and flush, PGlite's default) get them once that statement writes the two
// columns from AuditInStatement's purpose and fields, in the read side's rewrite (issue
// 57): set IN_STATEMENT_RECORDS_GRANT then, and the tests below demand it in every mode.
import type { AuditDurability } from '../../server/config.js';
import type { Engine } from './databases.js';

export const IN_STATEMENT_RECORDS_GRANT = false;

/** Whether entries written in `durability` hold the purpose and groups. */
export const recordsGrantIn = (durability: AuditDurability): boolean => durability === 'spool' || IN_STATEMENT_RECORDS_GRANT;

/** Whether a test server's entries on `engine`, in its default durability, hold them. */
export const recordsGrant = (engine: Engine): boolean => recordsGrantIn(engine === 'postgres' ? 'spool' : 'commit');
