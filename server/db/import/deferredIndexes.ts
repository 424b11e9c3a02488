// An initial load into an empty database writes every row of the tables it fills: their
// indexes are then built once, sorted, after the rows are written, rather than entry by
// entry as each row lands. Dropping an index locks its table until the import commits, so
// this is done only where the tables hold no row at all: a reader then waits for the load
// instead of finding nobody (docs/operating/import.md). Persons keep their keys (the
// import upserts them by id, and employments reference them); every other index, primary
// keys included, is built again, a key by adding its constraint, which checks it.
//
// The foreign keys checked at commit (an employment's person and its times) are dropped
// too and added again last: adding one checks every row in one join, where a kept one
// would queue a check per row written and probe the person of each. The company's key
// stays, checked row by row: dropping it would lock `companies`, which authentication
// reads, until the commit.
import type { Transaction } from '../engines/database.js';

/** The tables whose indexes an initial load builds after its rows. */
const filledTables = [
  'employees',
  'last_name_pieces',
  'first_name_pieces',
  'last_name_dictionary',
  'first_name_dictionary',
  'people_by_company_day',
  'people_by_credential_day',
] as const;

/** What to build again after the rows: an index by its definition, a key or foreign key by adding its constraint to its table. */
export interface DeferredDefinition {
  name: string;
  table: string;
  /** CREATE INDEX ..., or the constraint's definition (PRIMARY KEY (...), FOREIGN KEY (...) REFERENCES ...). */
  definition: string;
  constraint: boolean;
}

/** Drops the indexes (and deferred foreign keys) of the tables a load fills, if they and persons are empty; returns what to build again, in order. */
export async function deferIndexesIfEmpty(tx: Transaction): Promise<DeferredDefinition[]> {
  const [row] = await tx.query<{ empty: boolean }>(
    `SELECT ${['persons', ...filledTables].map((t) => `NOT EXISTS (SELECT 1 FROM ${t})`).join(' AND ')} AS empty`,
  );
  if (!row?.empty) return [];
  const indexes = await tx.query<DeferredDefinition>(
    `SELECT quote_ident(coalesce(c.conname, x.relname)) AS name, i.indrelid::regclass::text AS table,
            CASE WHEN c.oid IS NULL THEN pg_get_indexdef(i.indexrelid) ELSE pg_get_constraintdef(c.oid) END AS definition,
            c.oid IS NOT NULL AS constraint
       FROM pg_index i
       JOIN pg_class x ON x.oid = i.indexrelid
       LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u')
      WHERE i.indrelid = ANY ($1::regclass[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = i.indexrelid)
      ORDER BY 2, 1`,
    [filledTables],
  );
  // (Added after the keys they may rely on.)
  const foreignKeys = await tx.query<DeferredDefinition>(
    `SELECT quote_ident(conname) AS name, conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS definition, true AS constraint
       FROM pg_constraint WHERE contype = 'f' AND condeferred AND conrelid = ANY ($1::regclass[]) ORDER BY 2, 1`,
    [filledTables],
  );
  const deferred = [...indexes, ...foreignKeys];
  for (const d of deferred) await tx.query(d.constraint ? `ALTER TABLE ${d.table} DROP CONSTRAINT ${d.name}` : `DROP INDEX ${d.name}`);
  return deferred;
}

/**
 * Builds the deferred indexes and constraints again, as they were defined. A table cannot
 * be indexed while checks of its deferred foreign keys are pending, so any left run first,
 * here rather than at commit (the same checks, the same outcome), and are deferred again
 * after.
 */
export async function buildDeferredIndexes(tx: Transaction, deferred: readonly DeferredDefinition[]): Promise<void> {
  if (!deferred.length) return;
  const pending = await tx.query<{ name: string }>(
    'SELECT quote_ident(conname) AS name FROM pg_constraint WHERE conrelid = ANY ($1::regclass[]) AND condeferred ORDER BY 1',
    [filledTables],
  );
  const names = pending.map((c) => c.name).join(', ');
  if (names) await tx.query(`SET CONSTRAINTS ${names} IMMEDIATE`);
  for (const d of deferred) await tx.query(d.constraint ? `ALTER TABLE ${d.table} ADD CONSTRAINT ${d.name} ${d.definition}` : d.definition);
  if (names) await tx.query(`SET CONSTRAINTS ${names} DEFERRED`);
}
