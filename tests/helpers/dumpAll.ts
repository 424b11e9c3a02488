// Every row of every table the database holds outside the system schemas, found from the
// catalog (so a table added later is dumped too): one JSON text per row, keyed by table,
// and the values the planner's statistics sampled.
// On PGlite, whose one session every caller shares, its temporary tables too; a
// PostgreSQL session cannot read another's, and which pooled one answers is chance.
import type { Database } from '../../server/db/engines/database.js';

export type Dump = Record<string, string[]>;

export async function dumpAll(db: Database): Promise<Dump> {
  return db.transaction(async (tx) => {
    const tables = await tx.query<{ schema: string; name: string }>(
      `SELECT n.nspname AS schema, c.relname AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'm')
          AND ((n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%')
               OR (n.oid = pg_my_temp_schema() AND $1))
        ORDER BY 1, 2`,
      [db.kind === 'pglite'],
    );
    const dump: Dump = {};
    for (const { schema, name } of tables) {
      const rows = await tx.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${schema}"."${name}" t ORDER BY 1`);
      dump[`${schema.startsWith('pg_temp') ? 'pg_temp' : schema}.${name}`] = rows.map((r) => r.row);
    }
    // The planner's statistics sample column values (most common values, histogram bounds).
    const statistics = await tx.query<{ row: string }>(
      `SELECT concat_ws(' ', stavalues1::text, stavalues2::text, stavalues3::text, stavalues4::text, stavalues5::text) AS row FROM pg_statistic ORDER BY 1`,
    );
    dump['pg_catalog.pg_statistic'] = statistics.map((r) => r.row);
    return dump;
  });
}

/** The values (compared without case) that occur somewhere in the dump, with the tables they occur in. */
export function findValues(dump: Dump, values: readonly string[], { except = [] as readonly string[] } = {}): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(dump)) {
    if (except.includes(table)) continue;
    const text = rows.join('\n').toLowerCase();
    for (const value of values) if (text.includes(value.toLowerCase())) (found[value] ??= []).push(table);
  }
  return found;
}
