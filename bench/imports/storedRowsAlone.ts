// The floor a change or churn file is held to (issue 59: at most 5× it): the same records'
// rows written to `persons` and `employees` themselves, with their indexes and keys, but
// without the import's staging, resolving and checks and without the derived data's upkeep
// (which stands aside for the transaction, as an initial load's does). It is what
// PostgreSQL charges to change these rows where they live; the import's time beyond it is
// the product's own work. Timed in one transaction, then rolled back; the fastest of
// STORED_ALONE_TIMES, each from the stated state (a floor is only ever slowed, and one
// measurement moved by a third between two runs that agreed on every import).
import pg from 'pg';
import type { Queryable } from '../../server/db/engines/database.js';
import type { ImportRecord } from '../../server/importing/records.js';
import { copyLine, employeeRecordColumns, employeeRow } from '../../server/importing/storedRows.js';
import { settle } from './databaseState.js';
import { copyLines } from './rawCopy.js';

export const STORED_ALONE_TIMES = 3;

/** The fastest of STORED_ALONE_TIMES floors (below), each after `settle`, and every one's seconds. */
export async function fastestStoredRowsAlone(
  db: Queryable,
  databaseUrl: string,
  records: readonly ImportRecord[],
): Promise<{ seconds: number; each: number[] }> {
  const each: number[] = [];
  for (let i = 0; i < STORED_ALONE_TIMES; i++) {
    await settle(db);
    each.push(await storedRowsAloneSeconds(databaseUrl, records));
  }
  return { seconds: Math.min(...each), each };
}

/** An employee record's columns, as employeeRow gives them after its line (its fields, then their folded copies). */
const employeeColumns = employeeRecordColumns.slice(1).map((c) => c.column);

/** The records' rows, as COPY lines, and the ids they delete. */
function rowsOf(records: Iterable<ImportRecord>) {
  const persons: string[] = [];
  const employees: string[] = [];
  const deleted = { employee: [] as string[], person: [] as string[] };
  for (const r of records) {
    if (r.type === 'person') persons.push(copyLine([r.id, r.createdAt, r.updatedAt]));
    else if (r.type === 'employee') employees.push(copyLine(employeeRow(0, r).slice(1)));
    else if (r.type === 'delete' && (r.record === 'employee' || r.record === 'person')) deleted[r.record].push(r.id);
  }
  return { persons, employees, deleted };
}

/**
 * Seconds to write `records` to the stored tables (persons upserted, employments updated or
 * inserted from their employee records, deletions deleted), the derived data aside;
 * nothing is kept. Run it on the database the file was made for, as it was before the file.
 */
export async function storedRowsAloneSeconds(databaseUrl: string, records: Iterable<ImportRecord>): Promise<number> {
  const { persons, employees, deleted } = rowsOf(records);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    // The derived data's per-statement upkeep off for this transaction (server/db/derived/upkeep.sql).
    await client.query("SELECT set_config('lookup.bulk', 'on', true)");
    // (Keys checked by each statement, not at a commit that never comes.)
    await client.query('SET CONSTRAINTS ALL IMMEDIATE');
    await client.query('CREATE TEMP TABLE alone_persons ON COMMIT DROP AS SELECT id, created_at, updated_at FROM persons LIMIT 0');
    await client.query(`CREATE TEMP TABLE alone_employees ON COMMIT DROP AS SELECT ${employeeColumns.join(', ')} FROM employees LIMIT 0`);
    await copyLines(client, 'alone_persons (id, created_at, updated_at)', persons);
    await copyLines(client, `alone_employees (${employeeColumns.join(', ')})`, employees);
    await client.query('ANALYZE alone_persons');
    await client.query('ANALYZE alone_employees');
    const started = performance.now();
    await writeRows(client, deleted);
    const seconds = (performance.now() - started) / 1000;
    await client.query('ROLLBACK');
    return seconds;
  } finally {
    await client.end();
  }
}

async function writeRows(client: pg.Client, deleted: { employee: string[]; person: string[] }): Promise<void> {
  await client.query(`
    INSERT INTO persons (id, created_at, updated_at) SELECT id, created_at, updated_at FROM alone_persons ORDER BY id
    ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, updated_at = excluded.updated_at`);
  await client.query('DELETE FROM employees WHERE id = ANY ($1::uuid[])', [deleted.employee]);
  const set = employeeColumns.filter((c) => c !== 'id');
  await client.query(`
    UPDATE employees e SET ${set.map((c) => `${c} = a.${c}`).join(', ')}, person_created_at = p.created_at, person_updated_at = p.updated_at
      FROM alone_employees a LEFT JOIN persons p ON p.id = a.person_id
     WHERE e.id = a.id`);
  await client.query(`
    INSERT INTO employees (${employeeColumns.join(', ')}, person_created_at, person_updated_at)
    SELECT ${employeeColumns.map((c) => `a.${c}`).join(', ')}, p.created_at, p.updated_at
      FROM alone_employees a LEFT JOIN persons p ON p.id = a.person_id
     WHERE NOT EXISTS (SELECT 1 FROM employees e WHERE e.id = a.id)`);
  await client.query('DELETE FROM persons WHERE id = ANY ($1::uuid[])', [deleted.person]);
}
