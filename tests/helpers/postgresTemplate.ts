// vitest's global setup: where DATABASE_URL is set, one migrated PostgreSQL database per
// run that every throwaway PostgreSQL database (databases.ts) is created from (CREATE
// DATABASE ... TEMPLATE), as pgliteTemplate.ts does for PGlite. Migrating a new database
// costs most of a second of the server's CPU; copying a migrated one, a tenth of that, and
// the suite makes a few hundred. The name is unique to the run (other checkouts share the
// server), and the database is dropped when the run ends.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated database throwaway PostgreSQL databases are copied from ('' without DATABASE_URL). */
    postgresTemplate: string;
  }
}

/** Every vitest project runs the global setup; the template is made once per vitest process. */
const made = Symbol.for('lookup.tests.postgresTemplate');

export default async function providePostgresTemplate(project: TestProject): Promise<() => Promise<void>> {
  const memo = globalThis as { [made]?: Promise<string> };
  const adminUrl = process.env.DATABASE_URL;
  memo[made] ??= adminUrl ? makeTemplate(adminUrl) : Promise.resolve('');
  const name = await memo[made];
  project.provide('postgresTemplate', name);
  // Each project's teardown runs when the whole run ends; the first drops it, the rest find nothing.
  return async () => {
    if (adminUrl && name) await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
}

async function makeTemplate(adminUrl: string): Promise<string> {
  const name = `lookup_template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Migrated by the service's own code; closed, since a database being copied must have no connection.
  const db = await openDatabase({ databaseUrl: url.toString(), poolMax: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  return name;
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
