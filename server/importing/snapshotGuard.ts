// The safeguard of whole-company snapshots, as identity systems guard their syncs: a
// snapshot is the whole truth for its company, so a file that lost most of it (a failed
// export, the wrong file) would delete most of the company. A snapshot that would delete
// more than a share of a company's stored employments (and more than a few) is refused
// unless the operator allows that share; an empty file is never a snapshot.
import type { ImportProblem } from '../db/import/problems.js';
import type { SnapshotDeletions } from '../db/import/snapshotDeletions.js';

/** The share of a company's stored employments a snapshot may delete unless told more (--max-deletions). */
export const DEFAULT_MAX_DELETIONS_PERCENT = 20;
/** Up to this many deletions, a snapshot always goes through (a small company's daily changes). */
export const ALWAYS_ALLOWED_DELETIONS = 5;

export interface SnapshotGuard {
  /** 0–100: the share of a company's stored employments its snapshot may delete. */
  maxDeletionsPercent: number;
}

/** Each snapshot company's problem (line 0, as command-line arguments are) with an empty file. */
export function emptySnapshotProblems(companies: readonly string[]): ImportProblem[] {
  return companies.map((company) => ({
    line: 0,
    record: `--snapshot ${company}`,
    message: `the file holds no records: as a snapshot it would delete every employment of ${company}; refused whatever --max-deletions says (delete records say so, if that is meant)`,
  }));
}

/** A problem for each snapshot that would delete more than the guard allows. */
export function snapshotDeletionProblems(deletions: readonly SnapshotDeletions[], guard: SnapshotGuard): ImportProblem[] {
  return deletions
    .filter(({ deleting, stored }) => deleting > ALWAYS_ALLOWED_DELETIONS && deleting * 100 > guard.maxDeletionsPercent * stored)
    .map(({ company, deleting, stored }) => {
      const needed = Math.ceil((deleting * 100) / stored);
      const share = ((deleting * 100) / stored).toFixed(1);
      return {
        line: 0,
        record: `--snapshot ${company}`,
        message:
          `would delete ${deleting} of the ${stored} employments stored for company ${company} (${share}%), more than --max-deletions ${guard.maxDeletionsPercent} allows; ` +
          `if the source really dropped them, run again with --max-deletions ${needed} (100 allows any)`,
      };
    });
}
