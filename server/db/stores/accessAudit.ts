// The access audit's table (access_audit): entries written by the person query itself
// (server/db/reads/) or here, read back per person or per credential, and deleted past
// their retention by the housekeeping job; and the spool files' progress (access_audit_spools).
import type { AuditedOperation, SpooledEntry } from '../../domain/accessAudit.js';
import type { Queryable } from '../engines/database.js';

/** An entry as written here (tests, tools); the credential's purpose and groups as SpooledEntry holds them. */
export interface AuditEntry extends Pick<SpooledEntry, 'purpose' | 'fields'> {
  /** The instant of the read the response was built from (its asOf). */
  at: Date;
  credentialId: string;
  operation: AuditedOperation;
  /** The people the response held, in its order. */
  personIds: readonly string[];
  /** A person asked for by id whom the response did not hold. */
  notFoundPersonId?: string;
  /** The employment records with no person the response held, in its order (Search employees). */
  employeeIds?: readonly string[];
}

/**
 * Writes a batch of entries in one statement (one transaction, one commit). With
 * `synchronousCommit` false the commit returns before PostgreSQL has flushed it to disk
 * (synchronous_commit off for this transaction alone; see docs/operating/access-audit.md).
 */
export async function insertAuditEntries(db: Queryable, entries: readonly AuditEntry[], { synchronousCommit = true } = {}): Promise<void> {
  await db.query(
    `INSERT INTO access_audit (at, credential_id, operation, person_ids, not_found_person_id, employee_ids, purpose, fields)
     SELECT e.at, e.credential_id, e.operation, e.person_ids::uuid[], e.not_found_person_id, e.employee_ids::uuid[], e.purpose, e.fields::text[]
       FROM unnest($1::timestamptz[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::text[], $7::text[], $8::text[])
         AS e(at, credential_id, operation, person_ids, not_found_person_id, employee_ids, purpose, fields)
       ${synchronousCommit ? '' : `CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) AS this_transaction`}`,
    [
      entries.map((e) => e.at.toISOString()),
      entries.map((e) => e.credentialId),
      entries.map((e) => e.operation),
      // Each entry's ids as one array literal: a batch's arrays differ in length, which
      // a two-dimensional parameter cannot hold.
      entries.map((e) => `{${e.personIds.join(',')}}`),
      entries.map((e) => e.notFoundPersonId ?? null),
      entries.map((e) => `{${(e.employeeIds ?? []).join(',')}}`),
      entries.map((e) => e.purpose),
      entries.map((e) => `{${e.fields.join(',')}}`),
    ],
    { prepared: true },
  );
}

export interface AuditRecord {
  at: Date;
  credentialId: string;
  credentialName: string | null;
  operation: AuditedOperation;
  personIds: string[];
  notFoundPersonId: string | null;
  /** The employment records with no person the response held (Search employees; empty otherwise). */
  employeeIds: string[];
  /** The credential's purpose and field groups at the read; null on entries written before they were recorded (migration 006). */
  purpose: string | null;
  fields: string[] | null;
}

export interface AuditPeriod {
  since?: Date;
  until?: Date;
}

const recordColumns = `a.at, a.credential_id AS "credentialId", c.name AS "credentialName", a.operation,
       a.person_ids::text[] AS "personIds", a.not_found_person_id AS "notFoundPersonId", a.employee_ids::text[] AS "employeeIds",
       a.purpose, a.fields`;
const inPeriod = `($2::timestamptz IS NULL OR a.at >= $2) AND ($3::timestamptz IS NULL OR a.at < $3)`;

/** Every entry that returned the person or asked for them in vain, oldest first. */
export async function auditOfPerson(db: Queryable, personId: string, period: AuditPeriod = {}): Promise<AuditRecord[]> {
  return db.query<AuditRecord>(
    `SELECT ${recordColumns}
       FROM access_audit a LEFT JOIN credentials c ON c.id = a.credential_id
      WHERE (a.person_ids @> ARRAY[$1::uuid] OR a.not_found_person_id = $1::uuid) AND ${inPeriod}
      ORDER BY a.at, a.operation`,
    [personId, period.since ?? null, period.until ?? null],
  );
}

/** Every entry that returned the employment record (Search employees), oldest first. */
export async function auditOfEmployee(db: Queryable, employeeId: string, period: AuditPeriod = {}): Promise<AuditRecord[]> {
  return db.query<AuditRecord>(
    `SELECT ${recordColumns}
       FROM access_audit a LEFT JOIN credentials c ON c.id = a.credential_id
      WHERE a.operation = 'searchEmployees' AND a.employee_ids @> ARRAY[$1::uuid] AND ${inPeriod}
      ORDER BY a.at, a.operation`,
    [employeeId, period.since ?? null, period.until ?? null],
  );
}

/** Every entry of the credential, oldest first. */
export async function auditOfCredential(db: Queryable, credentialId: string, period: AuditPeriod = {}): Promise<AuditRecord[]> {
  return db.query<AuditRecord>(
    `SELECT ${recordColumns}
       FROM access_audit a LEFT JOIN credentials c ON c.id = a.credential_id
      WHERE a.credential_id = $1::uuid AND ${inPeriod}
      ORDER BY a.at, a.operation`,
    [credentialId, period.since ?? null, period.until ?? null],
  );
}

/**
 * Deletes up to `batch` entries older than `retentionDays`; returns how many went. Run it
 * inside the housekeeping lock (housekeeping.ts), in a transaction of its own.
 */
export async function deleteExpiredAuditEntries(tx: Queryable, retentionDays: number, batch: number): Promise<number> {
  // The append-only trigger lets this transaction, and only such, delete (access_audit_append_only).
  await tx.query(`SELECT set_config('lookup.access_audit_retention', 'on', true)`);
  const [deleted] = await tx.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM access_audit
        WHERE ctid = ANY (ARRAY(SELECT ctid FROM access_audit WHERE at < now() - $1 * interval '1 day' LIMIT $2))
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [retentionDays, batch],
  );
  return deleted!.n;
}

/**
 * Merges the person index's pending list into the index (access_audit_person_ids), in one sorted
 * pass; returns how many pending-list pages it emptied. Run it inside the housekeeping lock.
 */
export async function mergeAuditPersonIndex(tx: Queryable): Promise<number> {
  // The employee index (Search employees' entries, migration 005) keeps a pending list too.
  const [merged] = await tx.query<{ pages: string }>(
    `SELECT (gin_clean_pending_list('access_audit_person_ids'::regclass) + gin_clean_pending_list('access_audit_employee_ids'::regclass))::text AS pages`,
  );
  return Number(merged!.pages);
}

// The spool files of AUDIT_DURABILITY=spool (access_audit_spools, server/access/auditSpool.ts).

/** Makes a spool file's row, before its first entry: a file without one is not this database's. */
export async function registerAuditSpool(db: Queryable, name: string): Promise<void> {
  await db.query('INSERT INTO access_audit_spools (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
}

/** How far each of these spool files is shipped; a file without a row is absent from the map. */
export async function auditSpoolProgress(db: Queryable, names: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ name: string; shipped: string }>(
    'SELECT name, shipped_bytes::text AS shipped FROM access_audit_spools WHERE name = ANY($1::text[])',
    [names],
  );
  return new Map(rows.map((r) => [r.name, Number(r.shipped)]));
}

/**
 * Inserts a batch of spooled entries (`entries`: a JSON array of the spool's lines, ids and
 * field groups as array literals; read as json, not jsonb, which would parse it twice; a
 * line spooled before purposes were recorded has neither, and its entry null) and
 * moves the file's progress from `from` to `to` bytes, in one statement: both commit or
 * neither. The insert happens only if the file was shipped exactly to `from`, so a batch
 * shipped twice (a retry after a lost answer, two shippers) is inserted once. Run it on a
 * session with synchronous commit on (the shipper's): once it returns, the lines may go.
 * False: the progress was not at `from`, nothing was written.
 */
export async function shipAuditSpoolBatch(db: Queryable, name: string, from: number, to: number, entries: string): Promise<boolean> {
  const [result] = await db.query<{ advanced: number }>(
    `WITH progress AS (
       UPDATE access_audit_spools SET shipped_bytes = $3 WHERE name = $1 AND shipped_bytes = $2 RETURNING 1
     ), shipped AS (
       INSERT INTO access_audit (at, credential_id, operation, person_ids, not_found_person_id, employee_ids, purpose, fields)
       SELECT e.at, e.credential_id, e.operation, e.person_ids, e.not_found_person_id, coalesce(e.employee_ids, '{}'), e.purpose, e.fields
         FROM json_to_recordset($4::json)
              AS e(at timestamptz, credential_id uuid, operation text, person_ids uuid[], not_found_person_id uuid, employee_ids uuid[],
                   purpose text, fields text[])
        WHERE EXISTS (SELECT FROM progress)
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM progress)::int AS advanced, (SELECT count(*) FROM shipped) AS inserted`,
    [name, from, to, entries],
  );
  return result!.advanced === 1;
}

/** Removes a spool file's row once the file is shipped and gone. */
export async function forgetAuditSpool(db: Queryable, name: string): Promise<void> {
  await db.query('DELETE FROM access_audit_spools WHERE name = $1', [name]);
}

/**
 * A spool file's owner holds this session-level advisory lock for as long as it lives; an
 * instance that can take it knows the owner is gone. The key is the file name's hash
 * under a class of its own: two names sharing a hash only delay an adoption, never allow one.
 */
export async function tryLockAuditSpool(session: Queryable, name: string): Promise<boolean> {
  const [row] = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(728304, hashtext($1)) AS locked', [name]);
  return row!.locked;
}

/** The shipper's session: its commits wait for the disk flush, whatever the server's default. */
export async function prepareAuditSpoolSession(session: Queryable): Promise<void> {
  await session.query('SET synchronous_commit = on');
}

export async function unlockAuditSpool(session: Queryable, name: string): Promise<void> {
  await session.query('SELECT pg_advisory_unlock(728304, hashtext($1))', [name]);
}

/**
 * This database's name in the spool files opened while it could not be reached: its
 * cluster's system identifier (a standby shares its primary's) and its own name, hashed.
 */
export async function auditSpoolDatabaseId(db: Queryable): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `SELECT left(md5((SELECT system_identifier::text FROM pg_control_system()) || '/' || current_database()), 16) AS id`,
  );
  return row!.id;
}
