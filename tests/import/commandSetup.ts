// What the tests of `npm run import` as a process share: the records they import, and a
// database the commands use (a persistent embedded one, or a throwaway PostgreSQL one)
// with the environment that names it and a fingerprint of its content.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { type Engine, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { databaseFingerprint } from '../helpers/storedCounts.js';

export const uuid = (prefix: string, i: number) => `${prefix}-0000-4000-8000-${String(i).padStart(12, '0')}`;
export const employee = (i: number, companyId: string, personId: string | null = null) =>
  JSON.stringify({
    type: 'employee',
    id: uuid('20000000', i),
    companyId,
    personId,
    firstName: `Ann${i % 500}`,
    lastName: `Lee${i % 997}`,
    dateOfBirth: '1990-01-01',
    gender: null,
    email: 'ann@example.com',
    phone: `+1415555${String(i % 10_000).padStart(4, '0')}`,
    address: { line1: '1 Main St', line2: null, city: 'Springfield', state: 'IL', postalCode: '62701' },
    externalIds: [],
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
  });
export const company = (id: string, name = id) => JSON.stringify({ type: 'company', id, name });

/** A file that takes many seconds to import: `people` people, each with an employment at "big". */
export function bigFile(path: string, people: number): void {
  const lines = [company('big')];
  for (let i = 0; i < people; i++) {
    lines.push(JSON.stringify({ type: 'person', id: uuid('10000000', i), createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z' }));
    lines.push(employee(100_000 + i, 'big', uuid('10000000', i)));
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

export interface CommandDatabase {
  /** The environment of a command on it (and of npm: PATH and HOME). */
  env(): NodeJS.ProcessEnv;
  /** A new file in the test's directory with `content`. */
  file(content: string | Buffer, name?: string): string;
  /** Every table's content, read while no command runs (the embedded database is opened for it). */
  fingerprint(): Promise<Record<string, string>>;
}

/** A database on `engine` for the commands of a describe block, made before its tests and dropped after. */
export function commandDatabase(engine: Engine): CommandDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-import-'));
  let database: ThrowawayDatabase | undefined;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    const base = { PATH: process.env.PATH, HOME: process.env.HOME };
    if (engine === 'postgres') {
      database = await throwawayDatabase('postgres', { migrate: false });
      env = { ...base, DATABASE_URL: database.url };
    } else {
      env = { ...base, DATABASE_URL: '', PGLITE_DATA_DIR: join(dir, 'db') };
    }
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  let files = 0;
  return {
    env: () => env,
    file(content, name = `file-${++files}.ndjson`) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    async fingerprint() {
      if (database) return databaseFingerprint(database.db);
      const db = await openDatabase({ pgliteDataDir: env.PGLITE_DATA_DIR });
      try {
        return await databaseFingerprint(db);
      } finally {
        await db.close();
      }
    },
  };
}
