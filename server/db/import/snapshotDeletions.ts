// What a whole-company snapshot (--snapshot) would delete, per company, beside what the
// company holds now: the import refuses a snapshot that would delete a large share of a
// company's employments unless told it may (server/importing/snapshotGuard.ts). Read from
// the resolved file (resolve.ts), before anything is written.
import type { Transaction } from '../engines/database.js';

export interface SnapshotDeletions {
  company: string;
  /** Stored employments of the company the snapshot deletes (the file has no employee record of them). */
  deleting: number;
  /** Employments the company holds now. */
  stored: number;
}

export async function snapshotDeletions(tx: Transaction, companies: readonly string[]): Promise<SnapshotDeletions[]> {
  return tx.query<SnapshotDeletions>(
    `SELECT c AS company,
            (SELECT count(*) FROM import_employments f WHERE f.snapshot_company = c AND f.employee_line IS NULL AND f.stored)::int AS deleting,
            (SELECT count(*) FROM employees e WHERE e.company_id = c)::int AS stored
       FROM unnest($1::text[]) AS c ORDER BY 1`,
    [companies],
  );
}
