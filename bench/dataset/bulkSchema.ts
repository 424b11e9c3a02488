// Bulk loading is several times faster into tables without indexes and foreign keys:
// each row would otherwise update six indexes (two of them wide name btrees) and check its
// references one by one. So the loader takes the schema that migrate() created, lifts
// the keys and indexes of the bulk tables, and puts back exactly the same definitions
// afterwards (built in one sort each, references checked in one join each). The
// fingerprint proves the schema after the load is the one before it.
import type pg from 'pg';

export interface SchemaSnapshot {
  constraints: { table: string; name: string; type: 'p' | 'u' | 'f'; definition: string }[];
  indexes: { table: string; name: string; definition: string }[];
}

export async function snapshotSchema(client: pg.Client, tables: readonly string[]): Promise<SchemaSnapshot> {
  const { rows: constraints } = await client.query(
    `SELECT c.conrelid::regclass::text AS "table", c.conname AS name, c.contype AS type, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c
      WHERE c.conrelid = ANY($1::regclass[]) AND c.contype IN ('p', 'u', 'f')
      ORDER BY 1, 2`,
    [tables],
  );
  const { rows: indexes } = await client.query(
    `SELECT i.indrelid::regclass::text AS "table", i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
      WHERE i.indrelid = ANY($1::regclass[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u'))
      ORDER BY 1, 2`,
    [tables],
  );
  return { constraints, indexes };
}

/** Drops foreign keys, then plain indexes, then primary/unique keys of the given tables. */
export async function liftKeysAndIndexes(client: pg.Client, snapshot: SchemaSnapshot): Promise<void> {
  for (const c of snapshot.constraints.filter((c) => c.type === 'f')) await client.query(`ALTER TABLE ${c.table} DROP CONSTRAINT ${quote(c.name)}`);
  for (const i of snapshot.indexes) await client.query(`DROP INDEX ${i.name}`);
  for (const c of snapshot.constraints.filter((c) => c.type !== 'f')) await client.query(`ALTER TABLE ${c.table} DROP CONSTRAINT ${quote(c.name)}`);
}

/**
 * Rebuilds keys and indexes on `clients.length` connections at once (each build is one
 * sort, so two cores build two at a time), then adds the foreign keys back, which
 * validates every reference.
 */
export async function restoreKeysAndIndexes(clients: pg.Client[], snapshot: SchemaSnapshot, log: (line: string) => void): Promise<void> {
  const builds = [
    ...snapshot.constraints
      .filter((c) => c.type !== 'f')
      .map((c) => ({ label: c.name, sql: `ALTER TABLE ${c.table} ADD CONSTRAINT ${quote(c.name)} ${c.definition}` })),
    ...snapshot.indexes.map((i) => ({ label: i.name, sql: i.definition })),
  ];
  // Largest first, so the two workers finish together.
  builds.sort((a, b) => weight(b.sql) - weight(a.sql));
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (next < builds.length) {
        const build = builds[next++]!;
        const started = Date.now();
        await client.query(build.sql);
        log(`  ${build.label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    }),
  );
  // Foreign keys one at a time: adding one locks the referenced table against the next.
  for (const c of snapshot.constraints.filter((c) => c.type === 'f')) {
    await clients[0]!.query(`ALTER TABLE ${c.table} ADD CONSTRAINT ${quote(c.name)} ${c.definition}`);
  }
}

export function sameSchema(a: SchemaSnapshot, b: SchemaSnapshot): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const weight = (sql: string) => (/INCLUDE/i.test(sql) ? 3 : /employees/.test(sql) ? 2 : 1);
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
