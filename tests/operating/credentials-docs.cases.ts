// docs/operating/credentials.md shows what the commands print: its session and its table
// of mistakes are run here, as processes, in order, and each line compared with the page
// (ids, tokens, times and durations stand for whatever this run made).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from '../../server/db/schema/migrate.js';
import { demoCompanies } from '../../server/demo/credentials.js';
import { importRecords } from '../../server/importing/index.js';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine, openMigratedDataDir, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';
import { docSessions, docTable } from './docTables.js';

const PAGE = 'docs/operating/credentials.md';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A line with what differs between runs replaced by placeholders (ids are mapped, not replaced). */
function normalized(line: string): string {
  return line
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>')
    .replace(/plk_[A-Za-z0-9_-]+/g, '<token>')
    .replace(/\(\d+h\d+m\d+s left\)/g, '(<duration> left)')
    .replace(/ {2,}/g, '  ');
}

/** `npm run credentials -- a "b c" d` as the arguments the shell hands the command. */
function argumentsOf(command: string): string[] {
  const prefix = 'npm run credentials -- ';
  expect(command.startsWith(prefix), command).toBe(true);
  return [...command.slice(prefix.length).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

export function credentialsDocs(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'credentials.md on %s', placeholder: 'credentials.md' }, (engine) => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-credentials-docs-'));
    let database: ThrowawayDatabase | undefined;
    let env: NodeJS.ProcessEnv;
    const companies = demoCompanies
      .filter((c) => ['acme-corp', 'globex', 'initech'].includes(c.id))
      .map((c) => ({ type: 'company' as const, id: c.id, name: c.name }));
    beforeAll(async () => {
      if (engine === 'postgres') {
        database = await throwawayDatabase('postgres');
        await importRecords(database.db, companies, 'US');
        env = { ...process.env, DATABASE_URL: database.url, PGLITE_DATA_DIR: '' };
      } else {
        const db = await openMigratedDataDir(join(dir, 'db'));
        await migrate(db);
        await importRecords(db, companies, 'US');
        await db.close();
        env = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: join(dir, 'db') };
      }
    }, 60_000);
    afterAll(async () => {
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** The page's ids, as this run's: learnt where the page's output shows one the run printed. */
    const ids = new Map<string, string>();
    const ours = (text: string) => text.replace(UUID, (id) => ids.get(id) ?? id);

    it('prints what the session on the page shows, command by command', async () => {
      const sessions = docSessions(PAGE, 'A session');
      expect(sessions.length).toBeGreaterThan(5);
      for (const { command, output } of sessions) {
        const result = await runCommand('credentials', argumentsOf(ours(command)), env);
        expect(result.code, `${command}\n${result.stderr}`).toBe(0);
        const printed = result.stdout.trimEnd().split('\n');
        expect(printed, command).toHaveLength(output.length);
        output.forEach((shown, i) => {
          const documentedIds = shown.match(UUID) ?? [];
          const runIds = printed[i]!.match(UUID) ?? [];
          documentedIds.forEach((id, k) => {
            if (!ids.has(id) && runIds[k]) ids.set(id, runIds[k]!);
          });
          expect(normalized(printed[i]!), command).toBe(normalized(ours(shown)));
        });
      }
    }, 300_000);

    it('refuses each mistake in the table as the page says, changing nothing', async () => {
      const rows = docTable(PAGE, 'Mistakes');
      expect(rows.length).toBeGreaterThan(5);
      const before = await runCommand('credentials', ['list'], env);
      for (const [command, says] of rows) {
        const result = await runCommand('credentials', argumentsOf(ours(command!)), env);
        expect(result.code, `${command}\n${result.stdout}`).toBe(1);
        expect(result.stderr, command).toBe(`${ours(says!)}\n`);
      }
      expect((await runCommand('credentials', ['list'], env)).stdout).toBe(before.stdout);
    }, 300_000);
  });
}
