// The derived data (README.md beside this file): the structures, a rebuild from scratch,
// the check that the kept structures equal that rebuild, and the delete path erasure and
// operators use. Upkeep itself is in the database (follow_employment_changes and its
// companions, upkeep.sql beside this file), so every writer gets it.
import type { Database, Queryable } from '../engines/database.js';

/** Each derived table, read in a fixed order (its whole key), so that two readings compare. */
export const derivedTables = {
  last_name_dictionary: 'SELECT folded FROM last_name_dictionary ORDER BY 1',
  first_name_dictionary: 'SELECT folded FROM first_name_dictionary ORDER BY 1',
  last_name_pieces:
    'SELECT piece, company_id, person_created_at::text, person_id::text, last_name_folded, first_name_folded FROM last_name_pieces ORDER BY 1, 2, 3, 4, 5, 6',
  first_name_pieces: 'SELECT piece, company_id, person_created_at::text, person_id::text, first_name_folded FROM first_name_pieces ORDER BY 1, 2, 3, 4, 5',
  people_by_company_day: 'SELECT company_id, day::text, people FROM people_by_company_day ORDER BY 1, 2',
  people_by_credential_day: 'SELECT credential_id::text, day::text, people FROM people_by_credential_day ORDER BY 1, 2',
} as const;

export type DerivedTable = keyof typeof derivedTables;
export type DerivedSnapshot = Record<DerivedTable, unknown[]>;

export async function readDerivedData(db: Queryable): Promise<DerivedSnapshot> {
  const snapshot = {} as DerivedSnapshot;
  for (const [table, sql] of Object.entries(derivedTables) as [DerivedTable, string][]) snapshot[table] = await db.query(sql);
  return snapshot;
}

/** Empties every derived structure and fills it again from the source tables. */
export async function rebuildDerivedData(db: Queryable): Promise<void> {
  await db.query('SELECT rebuild_derived_data()');
}

class RolledBack extends Error {}

/**
 * The derived data as kept, beside what a rebuild from scratch would make of the same
 * source rows (computed in a transaction that is rolled back, so nothing changes).
 */
export async function derivedDataAndRebuild(db: Database): Promise<{ kept: DerivedSnapshot; rebuilt: DerivedSnapshot }> {
  let result: { kept: DerivedSnapshot; rebuilt: DerivedSnapshot } | undefined;
  await db
    .transaction(async (tx) => {
      const kept = await readDerivedData(tx);
      await rebuildDerivedData(tx);
      result = { kept, rebuilt: await readDerivedData(tx) };
      throw new RolledBack();
    })
    .catch((error) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return result!;
}

// The delete path. Deleting source rows is all it takes: the triggers keep every derived
// structure exact. The foreign keys want employments gone before their person or company.

/** Deletes these employments (with their membership, invitation, linked user, participation, coverage and external ids, which are their columns). */
export async function deleteEmployments(tx: Queryable, ids: readonly string[]): Promise<number> {
  return (await tx.query('DELETE FROM employees WHERE id = ANY($1::uuid[]) RETURNING 1', [ids])).length;
}

/** Deletes these persons and every employment of theirs. */
export async function deletePersons(tx: Queryable, ids: readonly string[]): Promise<number> {
  await tx.query('DELETE FROM employees WHERE person_id = ANY($1::uuid[])', [ids]);
  return (await tx.query('DELETE FROM persons WHERE id = ANY($1::uuid[]) RETURNING 1', [ids])).length;
}

/** Deletes these companies, every employment in them and their place in credentials. */
export async function deleteCompanies(tx: Queryable, ids: readonly string[]): Promise<number> {
  await tx.query('DELETE FROM employees WHERE company_id = ANY($1::text[])', [ids]);
  await tx.query('DELETE FROM credential_companies WHERE company_id = ANY($1::text[])', [ids]);
  return (await tx.query('DELETE FROM companies WHERE id = ANY($1::text[]) RETURNING 1', [ids])).length;
}
