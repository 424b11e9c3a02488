// Credentials in the database: looked up by token hash, managed by the CLI.
import { randomUUID } from 'node:crypto';
import type { Queryable } from './database.js';

export interface Credential {
  id: string;
  name: string;
  companies: ReadonlySet<string>;
  /** The same companies as an array, for SQL `= ANY($n)`. */
  companyList: readonly string[];
}

export async function findActiveCredential(db: Queryable, tokenHash: Buffer): Promise<Credential | undefined> {
  const [row] = await db.query<{ id: string; name: string; companies: string[] }>(
    `SELECT c.id, c.name, coalesce(array_agg(cc.company_id ORDER BY cc.company_id) FILTER (WHERE cc.company_id IS NOT NULL), '{}') AS companies
       FROM credentials c LEFT JOIN credential_companies cc ON cc.credential_id = c.id
      WHERE c.token_hash = $1 AND c.revoked_at IS NULL
      GROUP BY c.id`,
    [tokenHash],
  );
  return row && { id: row.id, name: row.name, companies: new Set(row.companies), companyList: row.companies };
}

export interface CredentialSummary {
  id: string;
  name: string;
  companies: string[];
  createdAt: Date;
  revokedAt: Date | null;
}

export async function listCredentials(db: Queryable): Promise<CredentialSummary[]> {
  return db.query<CredentialSummary>(
    `SELECT c.id, c.name, c.created_at AS "createdAt", c.revoked_at AS "revokedAt",
            coalesce(array_agg(cc.company_id ORDER BY cc.company_id) FILTER (WHERE cc.company_id IS NOT NULL), '{}') AS companies
       FROM credentials c LEFT JOIN credential_companies cc ON cc.credential_id = c.id
      GROUP BY c.id ORDER BY c.created_at, c.id`,
  );
}

export async function insertCredential(db: Queryable, name: string, tokenHash: Buffer, companies: string[]): Promise<string> {
  const id = randomUUID();
  await db.query('INSERT INTO credentials (id, name, token_hash) VALUES ($1, $2, $3)', [id, name, tokenHash]);
  if (companies.length) await db.query('INSERT INTO credential_companies (credential_id, company_id) SELECT $1, unnest($2::text[])', [id, companies]);
  return id;
}

/** Marks a credential revoked; returns false when no such active credential exists. */
export async function revokeCredential(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query('UPDATE credentials SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id', [id]);
  return rows.length > 0;
}

export async function unknownCompanies(db: Queryable, companies: string[]): Promise<string[]> {
  const found = await db.query<{ id: string }>('SELECT id FROM companies WHERE id = ANY($1::text[])', [companies]);
  const known = new Set(found.map((r) => r.id));
  return companies.filter((c) => !known.has(c));
}
