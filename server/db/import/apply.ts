// Writes a resolved, checked file (resolve.ts, problems.ts), set-based, in the order the
// foreign keys need: companies, persons and credentials first, then employments (written
// once each, whole, only where something differs), deletions of employments and persons,
// and companies last. The derived data follows in the database (server/db/derived).

import { employmentColumns } from '../employmentColumns.js';
import type { Transaction } from '../engines/database.js';
import { removeCompaniesFromReplacedSets, replaceCompanySet } from '../stores/credentials.js';
import { buildDeferredIndexes, deferIndexesIfEmpty } from './deferredIndexes.js';
import { type Reach, storedRow } from './reach.js';
import { beginUpkeep, finishUpkeep, type Upkeep } from './upkeep.js';

const written = employmentColumns.map((c) => c.column);

/** Writes the import; says which upkeep of the derived data it took (upkeep.ts). */
export async function applyImport(tx: Transaction, reach: Reach): Promise<Upkeep> {
  const upkeep = await beginUpkeep(tx);
  // (Into an empty database: indexes built once, after the rows; deferredIndexes.ts.)
  const deferred = upkeep === 'fill' ? await deferIndexesIfEmpty(tx) : [];
  await tx.query(`
    INSERT INTO companies (id, name) SELECT id, name FROM import_company_outcomes WHERE outcome IN ('added', 'changed')
    ON CONFLICT (id) DO UPDATE SET name = excluded.name`);
  // A person's new times reach their stored employments by trigger (follow_person_times).
  // (In key order, each index page of persons is filled in turn rather than revisited.)
  await tx.query(`
    INSERT INTO persons (id, created_at, updated_at) SELECT id, created_at, updated_at FROM import_person_outcomes WHERE outcome IN ('added', 'changed') ORDER BY id
    ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, updated_at = excluded.updated_at`);

  // Credentials before the employments: into an empty database, a new credential's
  // people are then counted once, by the fill, rather than recounted over every employment.
  await writeCredentials(tx);

  await tx.query(`
    DELETE FROM employees e USING import_employments f WHERE f.id = e.id AND f.stored AND NOT f.present`);
  await tx.query(`
    UPDATE employees e
       SET ${written
         .filter((c) => c !== 'id')
         .map((c) => `${c} = f.${c}`)
         .join(', ')},
           person_created_at = p.created_at, person_updated_at = p.updated_at
      FROM import_employments f ${storedRow(reach, 'persons', 'p', 'id', 'f.person_id')}
     WHERE f.write AND f.stored AND e.id = f.id`);
  // (In key order where the key is kept, so its index is filled page by page; where it is
  // built after, in the file's order, which keeps a person's employments together.)
  await tx.query(`
    INSERT INTO employees (${written.join(', ')}, person_created_at, person_updated_at)
    SELECT ${written.map((c) => `f.${c}`).join(', ')}, p.created_at, p.updated_at
      FROM import_employments f ${storedRow(reach, 'persons', 'p', 'id', 'f.person_id')}
     WHERE f.write AND NOT f.stored
     ${deferred.length ? '' : 'ORDER BY f.id'}`);
  await finishUpkeep(tx, upkeep);
  await buildDeferredIndexes(tx, deferred);

  await tx.query(`DELETE FROM persons p USING import_person_outcomes o WHERE o.id = p.id AND o.outcome = 'deleted'`);

  // Replaced company sets that a cached credential may still read lose a deleted company
  // with its employments (problems.ts refuses deleting one a credential's current set holds).
  const deleted = await tx.query<{ id: string }>(`SELECT id FROM import_company_outcomes WHERE outcome = 'deleted'`);
  if (deleted.length)
    await removeCompaniesFromReplacedSets(
      tx,
      deleted.map((c) => c.id),
    );
  await tx.query(`DELETE FROM companies c USING import_company_outcomes o WHERE o.id = c.id AND o.outcome = 'deleted'`);
  return upkeep;
}

async function writeCredentials(tx: Transaction): Promise<void> {
  await tx.query(`
    INSERT INTO credentials (id, name, token_hash, fields, purpose)
    SELECT id, name, token_hash, fields, purpose FROM import_credential_outcomes WHERE outcome IN ('added', 'changed')
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, token_hash = excluded.token_hash, fields = excluded.fields, purpose = excluded.purpose`);
  // A new credential's first company set has its own id; a stored credential whose
  // companies change gets a new set, as every change of companies does (db/stores/credentials.ts).
  await tx.query(`
    INSERT INTO credential_companies (credential_id, company_id)
    SELECT o.id, c FROM import_credential_outcomes o CROSS JOIN unnest(o.companies) AS c WHERE o.outcome = 'added'`);
  const regrouped = await tx.query<{ id: string; stored_set: string; companies: string[] }>(`
    SELECT id, stored_set, companies FROM import_credential_outcomes WHERE outcome = 'changed' AND stored_companies IS DISTINCT FROM companies`);
  for (const c of regrouped) await replaceCompanySet(tx, c.id, c.stored_set, c.companies);
}

export type Outcome = 'added' | 'changed' | 'unchanged' | 'deleted' | 'already_absent';

/** How many records of each type came to each outcome (`type` → outcome → count). */
export async function countOutcomes(tx: Transaction, kinds: readonly string[]): Promise<Record<string, Partial<Record<Outcome, number>>>> {
  const rows = await tx.query<{ type: string; outcome: Outcome; n: number }>(`
    SELECT 'company' AS type, outcome, count(*)::int AS n FROM import_company_outcomes GROUP BY 2
    UNION ALL SELECT 'person', outcome, count(*)::int FROM import_person_outcomes GROUP BY 2
    UNION ALL SELECT 'employee', employee, count(*)::int FROM import_employment_outcomes WHERE employee IS NOT NULL GROUP BY 2
    ${kinds.map((k) => `UNION ALL SELECT '${k}', ${k}, count(*)::int FROM import_employment_outcomes WHERE ${k} IS NOT NULL GROUP BY 2`).join('\n    ')}
    UNION ALL SELECT 'credential', outcome, count(*)::int FROM import_credential_outcomes GROUP BY 2`);
  const counts: Record<string, Partial<Record<Outcome, number>>> = {};
  for (const { type, outcome, n } of rows) (counts[type] ??= {})[outcome] = n;
  return counts;
}

/** `tx`, writing each statement's time to stderr (for tuning: the import asks for it with IMPORT_TIMINGS=1). */
export function timed(tx: Transaction): Transaction {
  return {
    ...tx,
    query: async (sql, params) => {
      const started = performance.now();
      const rows = await tx.query(sql, params);
      process.stderr.write(`  ${Math.round(performance.now() - started)} ms: ${sql.trim().split('\n')[0]!.slice(0, 90)}\n`);
      return rows as any;
    },
  };
}
