// The operator commands, run as an operator would: as processes, on a persistent
// embedded database (PGLITE_DATA_DIR), and on PostgreSQL when DATABASE_URL is set.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { smallDataset } from '../fixtures/small.js';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine, useCommandDatabase } from '../helpers/databases.js';

/** The operator commands, on each of `engines` (none: a skipped placeholder). */
export function operatorCommands(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'operator commands on %s', placeholder: 'the operator commands' }, (engine) => {
    const database = useCommandDatabase(engine, 'lookup-cli-');
    const { dir } = database;
    const cli = (script: string, ...args: string[]) => runCommand(script, args, database.env);

    it('imports a file, re-applies it as unchanged, and rejects a bad one naming each problem while writing nothing', async () => {
      const good = join(dir, 'good.ndjson');
      writeFileSync(
        good,
        smallDataset()
          .map((r) => JSON.stringify(r))
          .join('\n'),
      );
      const ok = await cli('import', good);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/company: 3 added, 0 changed, 0 unchanged, 0 deleted, 0 already absent/);
      expect(ok.stdout).toMatch(/person: 3 added/);
      expect(ok.stdout).toMatch(/employee: 6 added/);
      const again = await cli('import', good);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/employee: 0 added, 0 changed, 6 unchanged, 0 deleted, 0 already absent/);

      const bad = join(dir, 'bad.ndjson');
      writeFileSync(
        bad,
        [JSON.stringify({ type: 'company', id: 'new-co', name: 'New' }), JSON.stringify({ type: 'company', id: 'acme-corp', name: 'Again' }), '{not json'].join(
          '\n',
        ),
      );
      const parseFailure = await cli('import', bad);
      expect(parseFailure.code).toBe(2);
      expect(parseFailure.stderr).toMatch(/line 3: not valid JSON/);

      writeFileSync(
        bad,
        [JSON.stringify({ type: 'company', id: 'new-co', name: 'New' }), JSON.stringify({ type: 'delete', record: 'company', id: 'acme-corp' })].join('\n'),
      );
      const rejected = await cli('import', bad);
      expect(rejected.code).toBe(2);
      expect(rejected.stderr).toMatch(/line 2: delete company acme-corp: company acme-corp still has 3 employment\(s\)/);
      // new-co was valid but must not have landed: importing it alone now adds it.
      writeFileSync(bad, JSON.stringify({ type: 'company', id: 'new-co', name: 'New' }));
      expect((await cli('import', bad)).stdout).toMatch(/company: 1 added/);

      // A snapshot of acme-corp holding one of its employments deletes the others.
      const acme = smallDataset().filter((r) => r.type === 'employee' && r.companyId === 'acme-corp');
      writeFileSync(bad, JSON.stringify(acme[0]));
      const snapshot = await cli('import', bad, '--snapshot', 'acme-corp');
      expect(snapshot.code, snapshot.stderr).toBe(0);
      expect(snapshot.stdout).toMatch(/employee: 0 added, 0 changed, 1 unchanged, 2 deleted/);
    }, 120_000);

    // On one engine (PostgreSQL where there is one; each command is a process): the commands
    // are the same on either, and credential-lifecycle.test.ts runs create and list on both.
    it.runIf(engine === engines.at(-1))(
      'creates a credential (token shown once), lists it, and revokes it',
      async () => {
        const created = await cli('credentials', 'create', 'ci reporting', 'acme-corp', 'globex', '--fields', 'all', '--purpose', 'CI: reporting');
        expect(created.code, created.stderr).toBe(0);
        const token = /token \(shown once, store it now\): (plk_\S+)/.exec(created.stdout)?.[1];
        const id = /created credential ([0-9a-f-]{36})/.exec(created.stdout)?.[1];
        expect(token).toBeDefined();

        const listed = await cli('credentials', 'list');
        expect(listed.stdout).toContain(`${id}  active`);
        expect(listed.stdout).toContain('ci reporting  [acme-corp, globex]');
        expect(listed.stdout).not.toContain(token!);

        expect((await cli('credentials', 'create', 'bad', 'no-such-company', '--fields', 'name', '--purpose', 'CI')).stderr).toMatch(
          /unknown companies: no-such-company/,
        );
        const revoked = await cli('credentials', 'revoke', id!);
        expect(revoked.code).toBe(0);
        expect((await cli('credentials', 'list')).stdout).toMatch(new RegExp(`${id}  revoked`));
        expect((await cli('credentials', 'revoke', id!)).code).toBe(1);
      },
      120_000,
    );

    it('refuses to work on an in-memory database', async () => {
      const result = await runCommand('credentials', ['list'], { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: '' });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/set DATABASE_URL .* or PGLITE_DATA_DIR/);
    });
  });
}
