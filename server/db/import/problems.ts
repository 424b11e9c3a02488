// The checks that need the database, on the state after the file (resolve.ts): every
// reference resolvable once the whole file applies, nothing deleted that something left
// still names. Each problem names the line to fix. Set-based; the first `limit` by line
// are returned with the count of all.

import { employmentRecordKindNames } from '../../domain/employment.js';
import type { Transaction } from '../engines/database.js';
import { companyAfter, personAfter } from './resolve.js';

export interface ImportProblem {
  line: number;
  record: string;
  message: string;
}

const checks: string[] = [
  // An employment the file writes, naming a company or person absent after the file.
  `SELECT f.employee_line, 'employee ' || f.id,
          CASE WHEN d.line IS NOT NULL THEN format('company %s is deleted on line %s', f.company_id, d.line)
               ELSE format('unknown company %s: not in this import nor in the database', f.company_id) END
     FROM import_employments f LEFT JOIN import_company_outcomes d ON d.id = f.company_id AND d.deleting
    WHERE f.present AND f.employee_line IS NOT NULL AND NOT ${companyAfter('f.company_id')}`,
  `SELECT f.employee_line, 'employee ' || f.id,
          CASE WHEN d.line IS NOT NULL THEN format('person %s is deleted on line %s', f.person_id, d.line)
               ELSE format('unknown person %s: not in this import nor in the database', f.person_id) END
     FROM import_employments f LEFT JOIN import_person_outcomes d ON d.id = f.person_id AND d.deleting
    WHERE f.present AND f.employee_line IS NOT NULL AND f.person_id IS NOT NULL
      -- (A stored employment keeping its person names one that exists now, by its foreign
      -- key, so only the file deleting that person can take it away. EXISTS rather than
      -- d.line: the planner tests d only after the join, past the probe this skips.)
      AND (f.person_id IS DISTINCT FROM f.stored_person_id OR EXISTS (SELECT 1 FROM import_person_outcomes x WHERE x.id = f.person_id AND x.deleting))
      AND NOT ${personAfter('f.person_id')}`,
  // A company or person deleted while stored employments the file leaves alone still name them.
  `SELECT d.line, 'delete company ' || d.id,
          format('company %s still has %s employment(s) this file neither deletes nor moves (e.g. employee %s); delete or move them in the same file',
                 d.id, count(*), min(e.id::text))
     FROM import_company_outcomes d JOIN employees e ON e.company_id = d.id
    WHERE d.deleting AND NOT EXISTS (SELECT 1 FROM import_employments f WHERE f.id = e.id AND (NOT f.present OR f.employee_line IS NOT NULL))
    GROUP BY d.line, d.id`,
  `SELECT d.line, 'delete person ' || d.id,
          format('person %s still has %s employment(s) this file neither deletes nor relinks (e.g. employee %s); delete or relink them in the same file',
                 d.id, count(*), min(e.id::text))
     FROM import_person_outcomes d JOIN employees e ON e.person_id = d.id
    WHERE d.deleting AND NOT EXISTS (SELECT 1 FROM import_employments f WHERE f.id = e.id AND (NOT f.present OR f.employee_line IS NOT NULL))
    GROUP BY d.line, d.id`,
  // A per-employment record whose employment is absent after the file: every kind in one
  // pass over the employments (a pass per kind read them all once for each).
  `SELECT k.line, k.kind || ' ' || f.id,
          CASE WHEN f.snapshot_company IS NOT NULL AND f.employee_line IS NULL
                 THEN format('employee %s is deleted by the snapshot of company %s, which this file lacks an employee record of it for', f.id, f.snapshot_company)
               WHEN f.employee_deleting THEN format('employee %s is deleted on line %s', f.id, f.employee_line)
               ELSE format('unknown employee %s: not in this import nor in the database', f.id) END
     FROM import_employments f
    CROSS JOIN LATERAL (VALUES ${employmentRecordKindNames
      .map((kind) => `('${kind}', f.${kind}_line, f.${kind}_explicit AND NOT f.${kind}_deleting)`)
      .join(', ')}) AS k(kind, line, names_it)
    WHERE NOT f.present AND k.names_it`,
  // Credentials: their companies, and companies deleted that a credential left alone names.
  `SELECT o.line, format('credential "%s"', o.name), format('unknown company %s: not in this import nor in the database', c.company)
     FROM import_credential_outcomes o CROSS JOIN unnest(o.companies) AS c(company)
    WHERE NOT ${companyAfter('c.company')}`,
  `SELECT d.line, 'delete company ' || d.id,
          format('company %s is one of the companies of credential "%s" (%s); a credential record in this file without it, or revoking it, comes first', d.id, c.name, c.id)
     FROM import_company_outcomes d JOIN credential_companies cc ON cc.company_id = d.id JOIN credentials c ON c.company_set_id = cc.credential_id
    WHERE d.deleting AND NOT EXISTS (SELECT 1 FROM import_credential_outcomes o WHERE o.id = c.id)`,
  `SELECT o.line, format('credential "%s"', o.name), 'a credential with this token already exists under another id'
     FROM import_credential_outcomes o
    WHERE EXISTS (SELECT 1 FROM credentials c WHERE c.token_hash = o.token_hash AND c.id <> o.id)
       OR EXISTS (SELECT 1 FROM import_credential_outcomes x WHERE x.token_hash = o.token_hash AND x.id <> o.id)`,
];

export async function findProblems(tx: Transaction, limit: number): Promise<{ first: ImportProblem[]; count: number }> {
  await tx.query('CREATE TEMP TABLE import_problems (line integer, record text, message text) ON COMMIT DROP');
  for (const check of checks) await tx.query(`INSERT INTO import_problems ${check}`);
  const [{ count }] = (await tx.query<{ count: number }>('SELECT count(*)::int AS count FROM import_problems')) as [{ count: number }];
  const first = await tx.query<ImportProblem>('SELECT line, record, message FROM import_problems ORDER BY line, record, message LIMIT $1', [limit]);
  return { first, count };
}

/** Companies named by --snapshot that are neither stored nor in the file. */
export async function unknownSnapshotCompanies(tx: Transaction, companies: readonly string[]): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(`SELECT c AS id FROM unnest($1::text[]) AS c WHERE NOT ${companyAfter('c')} ORDER BY 1`, [companies]);
  return rows.map((r) => r.id);
}
