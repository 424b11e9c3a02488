// Credentials in the database: looked up by token hash, managed by the CLI. Only token
// hashes are stored. A credential's companies are an immutable company set that a change
// replaces (credential_companies), so a cached credential always reads one consistent set.
// Its field groups are stored as a list of group names, `all` expanded (migration 006).
import { randomUUID } from 'node:crypto';
import type { ActiveCredentials, Credential } from '../../domain/credentials.js';
import { type FieldSet, fieldSetOf, isFieldGroup } from '../../domain/fieldGroups.js';
import type { Database, Queryable } from '../engines/database.js';
import { READ_POSITION, walPosition } from '../replicas/walPosition.js';

/**
 * The credential a token opens now: not revoked, not expired, and the current token or a
 * replaced one still in its overlap. `positioned` (where reads may go to replicas): with
 * how far the database that answered had got (Credential.readPosition).
 */
export async function findActiveCredential(db: Queryable, tokenHash: Buffer, positioned = false): Promise<Credential | undefined> {
  const [row] = await db.query<{
    id: string;
    name: string;
    companySetId: string;
    companies: string[];
    companiesOutside: number;
    fields: string[];
    purpose: string;
    validUntil: Date | null;
    byPreviousToken: boolean;
    read_position?: string;
  }>(
    `SELECT c.id, c.name, c.company_set_id AS "companySetId",${positioned ? ` ${READ_POSITION} AS read_position,` : ''}
            ARRAY(SELECT cc.company_id FROM credential_companies cc WHERE cc.credential_id = c.company_set_id ORDER BY cc.company_id) AS companies,
            -- (Every company of a set is one of companies: a foreign key.)
            (SELECT count(*) FROM companies)::int - (SELECT count(*) FROM credential_companies cc WHERE cc.credential_id = c.company_set_id)::int AS "companiesOutside",
            c.fields, c.purpose,
            least(c.expires_at, CASE WHEN c.token_hash = $1 THEN NULL ELSE c.previous_token_valid_until END) AS "validUntil",
            c.token_hash <> $1 AS "byPreviousToken"
       FROM credentials c
      WHERE (c.token_hash = $1 OR (c.previous_token_hash = $1 AND c.previous_token_valid_until > now()))
        AND c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now())`,
    [tokenHash],
    positioned ? { reportsPosition: true } : undefined,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    companySetId: row.companySetId,
    companies: new Set(row.companies),
    companyList: row.companies,
    companiesOutside: row.companiesOutside,
    fields: storedFields(row.fields),
    purpose: row.purpose,
    validUntil: row.validUntil?.getTime(),
    byPreviousToken: row.byPreviousToken,
    ...(row.read_position === undefined ? {} : { readPosition: walPosition(row.read_position) }),
  };
}

/** The domain's ActiveCredentials over this database (app.ts gives it to authentication); `positioned`: see findActiveCredential. */
export class SqlCredentials implements ActiveCredentials {
  constructor(
    private readonly db: Queryable,
    private readonly positioned = false,
  ) {}

  findActive(tokenHash: Buffer): Promise<Credential | undefined> {
    return findActiveCredential(this.db, tokenHash, this.positioned);
  }
}

/**
 * A stored list of groups as a FieldSet. A name this build does not know (written by a
 * newer release, during a rollout or a rollback) grants nothing here.
 */
const storedFields = (names: readonly string[]): FieldSet => fieldSetOf(names.filter(isFieldGroup));

export interface CredentialSummary {
  id: string;
  name: string;
  companies: string[];
  fields: FieldSet;
  purpose: string;
  createdAt: Date;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  /** Set while a rotation's replaced token may still work (or did, until this instant). */
  previousTokenValidUntil: Date | null;
  previousTokenLastUsedAt: Date | null;
}

const summaryColumns = `c.id, c.name, c.fields, c.purpose, c.created_at AS "createdAt", c.revoked_at AS "revokedAt", c.expires_at AS "expiresAt",
       c.last_used_at AS "lastUsedAt", c.previous_token_valid_until AS "previousTokenValidUntil",
       c.previous_token_last_used_at AS "previousTokenLastUsedAt",
       ARRAY(SELECT cc.company_id FROM credential_companies cc WHERE cc.credential_id = c.company_set_id ORDER BY cc.company_id) AS companies`;

export async function listCredentials(db: Queryable): Promise<CredentialSummary[]> {
  const rows = await db.query<CredentialSummary>(`SELECT ${summaryColumns} FROM credentials c ORDER BY c.created_at, c.id`);
  return rows.map((row) => ({ ...row, fields: storedFields(row.fields) }));
}

/** One credential, locked against concurrent changes until the transaction ends. */
export async function lockCredential(tx: Queryable, id: string): Promise<(CredentialSummary & { companySetId: string }) | undefined> {
  if (!isUuid(id)) return undefined;
  // Locked first, read after: a statement that waited for the lock would still read the
  // companies as of before the change it waited for.
  const [locked] = await tx.query('SELECT 1 FROM credentials WHERE id = $1 FOR UPDATE', [id]);
  if (!locked) return undefined;
  const [row] = await tx.query<CredentialSummary & { companySetId: string }>(
    `SELECT ${summaryColumns}, c.company_set_id AS "companySetId" FROM credentials c WHERE c.id = $1`,
    [id],
  );
  return row && { ...row, fields: storedFields(row.fields) };
}

/** What a new credential is: its name, token, companies, and what it reads and why. */
export interface NewCredential {
  name: string;
  tokenHash: Buffer;
  companies: readonly string[];
  fields: FieldSet;
  purpose: string;
  expiresAt?: Date | null;
}

/** A new credential and its companies (each once), in one transaction: both are written, or neither. */
export async function insertCredential(db: Database, { name, tokenHash, companies, fields, purpose, expiresAt = null }: NewCredential): Promise<string> {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO credentials (id, name, token_hash, fields, purpose, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      id,
      name,
      tokenHash,
      fieldSetOf(fields),
      purpose,
      expiresAt,
    ]);
    const distinct = [...new Set(companies)];
    if (distinct.length) await tx.query('INSERT INTO credential_companies (credential_id, company_id) SELECT $1, unnest($2::text[])', [id, distinct]);
  });
  return id;
}

/** Marks a credential revoked; returns false when no such active credential exists. */
export async function revokeCredential(db: Queryable, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.query('UPDATE credentials SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id', [id]);
  return rows.length > 0;
}

/**
 * Points the credential at a new company set holding `companies` and records the old set
 * as replaced. Inserting the set's rows recounts its people rollup (the upkeep's
 * trigger, db/derived/upkeep.sql), in this transaction.
 */
export async function replaceCompanySet(tx: Queryable, credentialId: string, oldSetId: string, companies: readonly string[]): Promise<void> {
  const setId = randomUUID();
  if (companies.length) await tx.query('INSERT INTO credential_companies (credential_id, company_id) SELECT $1, unnest($2::text[])', [setId, companies]);
  await tx.query('UPDATE credentials SET company_set_id = $2 WHERE id = $1', [credentialId, setId]);
  await tx.query('INSERT INTO replaced_company_sets (id, credential_id) VALUES ($1, $2)', [oldSetId, credentialId]);
}

/**
 * Takes deleted companies out of the company sets credentials no longer point at (a
 * cached credential may still read one until its cache entry expires; the company's
 * employments go in the same transaction, so it reads nothing of them). Their people
 * rollups are recounted by the trigger. A current set that holds one must be replaced
 * first (`replaceCompanySet`). Returns how many set memberships went.
 */
export async function removeCompaniesFromReplacedSets(tx: Queryable, companies: readonly string[]): Promise<number> {
  const gone = await tx.query(
    `DELETE FROM credential_companies cc
      WHERE cc.company_id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM credentials c WHERE c.company_set_id = cc.credential_id)
      RETURNING 1`,
    [companies],
  );
  return gone.length;
}

/**
 * Company sets replaced at least `keepMs` ago: their rows go, and with them (by the
 * recount trigger on credential_companies) their people rollup. Returns how many sets.
 */
export async function removeReplacedCompanySets(tx: Queryable, keepMs: number): Promise<number> {
  const gone = await tx.query<{ id: string }>(`DELETE FROM replaced_company_sets WHERE replaced_at < now() - $1 * interval '1 millisecond' RETURNING id`, [
    keepMs,
  ]);
  if (gone.length) await tx.query('DELETE FROM credential_companies WHERE credential_id = ANY($1::uuid[])', [gone.map((s) => s.id)]);
  return gone.length;
}

/**
 * A new token. With an overlap, the replaced token keeps working until then (a token an
 * earlier rotation replaced stops at once); without, it stops now.
 */
export async function rotateToken(tx: Queryable, id: string, tokenHash: Buffer, overlapMs: number): Promise<Date | null> {
  const [row] = await tx.query<{ validUntil: Date | null }>(
    `UPDATE credentials
        SET previous_token_hash = CASE WHEN $3::bigint > 0 THEN token_hash END,
            previous_token_valid_until = CASE WHEN $3::bigint > 0 THEN now() + $3::bigint * interval '1 millisecond' END,
            previous_token_last_used_at = NULL,
            token_hash = $2
      WHERE id = $1
      RETURNING previous_token_valid_until AS "validUntil"`,
    [id, tokenHash, overlapMs],
  );
  return row!.validUntil;
}

export async function setExpiry(tx: Queryable, id: string, expiresAt: Date | null): Promise<void> {
  await tx.query('UPDATE credentials SET expires_at = $2 WHERE id = $1', [id, expiresAt]);
}

/** The groups the credential reads from now on, stored in fieldGroups' order (`all` expanded). */
export async function setFields(tx: Queryable, id: string, fields: FieldSet): Promise<void> {
  await tx.query('UPDATE credentials SET fields = $2 WHERE id = $1', [id, fieldSetOf(fields)]);
}

export async function setPurpose(tx: Queryable, id: string, purpose: string): Promise<void> {
  await tx.query('UPDATE credentials SET purpose = $2 WHERE id = $1', [id, purpose]);
}

export interface CredentialUse {
  id: string;
  /** Last use by its current token, and by the token a rotation replaced (ms since the epoch). */
  current?: number;
  previous?: number;
}

/** Moves each credential's last-use times forward (never back: instances report out of order). */
export async function recordCredentialUse(db: Queryable, uses: CredentialUse[]): Promise<void> {
  const at = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  await db.query(
    `UPDATE credentials c
        SET last_used_at = greatest(c.last_used_at, u.current, u.previous),
            previous_token_last_used_at = greatest(c.previous_token_last_used_at, u.previous)
       FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) AS u(id, current, previous)
      WHERE c.id = u.id`,
    [uses.map((u) => u.id), uses.map((u) => at(u.current)), uses.map((u) => at(u.previous))],
  );
}

export async function unknownCompanies(db: Queryable, companies: string[]): Promise<string[]> {
  const found = await db.query<{ id: string }>('SELECT id FROM companies WHERE id = ANY($1::text[])', [companies]);
  const known = new Set(found.map((r) => r.id));
  return companies.filter((c) => !known.has(c));
}

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
