// `npm run credentials` grant, revoke-company, rotate, set-expiry and list, run as an
// operator runs them: as processes, on a persistent embedded database and on PostgreSQL.
// Mistakes (unknown credential or company, bad duration or instant) exit non-zero with a
// message that says what is wrong.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/engines/openDatabase.js';
import { migrate } from '../../server/db/schema/migrate.js';
import { findActiveCredential } from '../../server/db/stores/credentials.js';
import { hashToken } from '../../server/domain/tokens.js';
import { importRecords } from '../../server/importing/index.js';
import { smallDataset } from '../fixtures/small.js';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine, openMigratedDataDir, type ThrowawayDatabase, throwawayDatabase } from '../helpers/databases.js';

function commands(env: () => NodeJS.ProcessEnv) {
  return (...args: string[]) => runCommand('credentials', args, env());
}

/** The credential lifecycle commands, on each of `engines` (none: a skipped placeholder). */
export function credentialLifecycle(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'credential lifecycle commands on %s', placeholder: 'the credential lifecycle commands' }, (engine) => {
    const dir = mkdtempSync(join(tmpdir(), 'lookup-credentials-'));
    let database: ThrowawayDatabase | undefined;
    let env: NodeJS.ProcessEnv;
    beforeAll(async () => {
      if (engine === 'postgres') {
        database = await throwawayDatabase('postgres');
        await importRecords(database.db, smallDataset(), 'US');
        env = { ...process.env, DATABASE_URL: database.url };
      } else {
        // Migrated from the run's template (a command's first start on a new directory is cli.test.ts's).
        const db = await openMigratedDataDir(join(dir, 'db'));
        await migrate(db);
        await importRecords(db, smallDataset(), 'US');
        await db.close();
        env = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: join(dir, 'db') };
      }
    }, 60_000);
    afterAll(async () => {
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const credentials = commands(() => env);

    it('changes companies, rotates, sets the expiry, and lists all of it without a token', async () => {
      const created = await credentials('create', 'ci reporting', 'acme-corp', '--expires', '30d');
      expect(created.code, created.stderr).toBe(0);
      const id = /created credential ([0-9a-f-]{36})/.exec(created.stdout)![1]!;
      const firstToken = /token \(shown once, store it now\): (plk_\S+)/.exec(created.stdout)![1]!;
      expect(created.stdout).toMatch(/expires 20\d\d-/);

      const granted = await credentials('grant', id, 'globex', 'secret-co', 'acme-corp');
      expect(granted.code, granted.stderr).toBe(0);
      expect(granted.stdout).toContain('already granted, unchanged: acme-corp');
      expect(granted.stdout).toContain('now covers [acme-corp, globex, secret-co] (was [acme-corp])');
      const revoked = await credentials('revoke-company', id, 'globex');
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.stdout).toContain('now covers [acme-corp, secret-co] (was [acme-corp, globex, secret-co])');

      const rotated = await credentials('rotate', id, '--overlap', '24h');
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(rotated.stdout).toMatch(/the previous token keeps working until 20\d\d-/);
      const secondToken = /token \(shown once, store it now\): (plk_\S+)/.exec(rotated.stdout)![1]!;
      expect(secondToken).not.toBe(firstToken);

      expect((await credentials('set-expiry', id, 'never')).code).toBe(0);
      const listed = await credentials('list');
      expect(listed.code, listed.stderr).toBe(0);
      const block = listed.stdout.slice(listed.stdout.indexOf(id)).split('\n').slice(0, 2).join('\n');
      expect(block).toMatch(new RegExp(`^${id}  active\\s+ci reporting  \\[acme-corp, secret-co\\]\\n`));
      expect(block).toMatch(/created 20\d\d-\S+, last used never, no expiry, previous token valid until 20\d\d-\S+ \(23h59m\d+s left\), last used never/);
      // Neither token, nor either hash in any encoding, is ever shown.
      for (const secret of [firstToken, secondToken]) {
        const hash = hashToken(secret);
        for (const shown of [secret, hash.toString('hex'), hash.toString('base64'), hash.toString('base64url')]) expect(listed.stdout).not.toContain(shown);
      }

      // Both tokens open the credential (the first in its overlap), now with its new companies.
      const db = database?.db ?? (await openDatabase({ pgliteDataDir: join(dir, 'db') }));
      try {
        for (const token of [firstToken, secondToken])
          expect((await findActiveCredential(db, hashToken(token)))?.companyList).toEqual(['acme-corp', 'secret-co']);
      } finally {
        if (!database) await db.close();
      }

      // Rotating again without an overlap ends both earlier tokens at once, and says so.
      const again = await credentials('rotate', id);
      expect(again.stdout).toMatch(/the token an earlier rotation replaced \(overlap until 20\d\d-\S+\) stops working now/);
      expect(again.stdout).toContain('the previous token stops working now');
    }, 120_000);

    // The refusals are the same on either engine: checked on one (PostgreSQL where there is one; each command is a process).
    it.runIf(engine === engines.at(-1))(
      'refuses an unknown credential or company, a revoked credential, and an expiry in the past',
      async () => {
        const unknownId = '00000000-0000-4000-8000-0000000000ff';
        for (const args of [
          ['grant', unknownId, 'acme-corp'],
          ['rotate', unknownId],
        ]) {
          const result = await credentials(...args);
          expect(result.code, args.join(' ')).toBe(1);
          expect(result.stderr).toMatch(/^unknown credential \S+ \(npm run credentials -- list shows them\)\n$/);
        }
        // A company named twice is granted once; nothing is left of a create that was refused.
        const created = await credentials('create', 'short-lived', 'acme-corp', 'acme-corp');
        expect(created.code, created.stderr).toBe(0);
        expect(created.stdout).toContain('"short-lived" for acme-corp\n');
        const id = /created credential ([0-9a-f-]{36})/.exec(created.stdout)![1]!;
        const refused = await credentials('create', 'refused', 'acme-corp', 'no-such-co');
        expect(refused.code).toBe(1);
        expect((await credentials('list')).stdout).not.toContain('refused');
        const unknownCompany = await credentials('revoke-company', id, 'acme-corp', 'no-such-co');
        expect(unknownCompany.code).toBe(1);
        expect(unknownCompany.stderr).toContain('unknown companies: no-such-co (import them first)');
        const past = await credentials('set-expiry', id, '2020-01-01T00:00:00Z');
        expect(past.code).toBe(1);
        expect(past.stderr).toContain('the expiry must be in the future (to stop a credential now, revoke it)');
        expect((await credentials('revoke', id)).code).toBe(0);
        const onRevoked = await credentials('grant', id, 'globex');
        expect(onRevoked.code).toBe(1);
        expect(onRevoked.stderr).toContain(`credential ${id} is revoked; create a new one`);
      },
      120_000,
    );
  });
}

/** The arguments each credential command refuses, before it opens any database: one engine-free run. */
export function credentialArguments(): void {
  describe('credential command arguments', () => {
    // Checked before any database is opened, so no database is configured here.
    const credentials = commands(() => ({ ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: '' }));
    const id = '00000000-0000-4000-8000-0000000000ff';

    it.each([
      [['rotate', id, '--overlap', '24x'], /--overlap: "24x" is not a duration \(use e\.g\. 30m, 24h, 7d, 1d12h\)/],
      [['rotate', id, '--overlap', '31d'], /--overlap may be at most 30d/],
      [['set-expiry', id, 'tomorrow'], /<when>: "tomorrow" is neither an RFC 3339 instant with an offset .* nor a duration from now/],
      [['create', 'x', 'acme-corp', '--expires', '2027-01-01'], /--expires: "2027-01-01" is neither an RFC 3339 instant/],
      [['grant', id, 'acme-corp', '--overlap', '1h'], /--overlap belongs to rotate/],
      [['rotate', id, '--overlp', '1h'], /^unknown option --overlp\nusage: npm run credentials/],
      [['grant', id], /^grant takes at least 2 arguments; got 1\nusage: npm run credentials -- <command>/],
      [['delete', id], /^unknown command "delete" \(one of create, list, grant, revoke-company, rotate, set-expiry, revoke\)\nusage: /],
      [['create', '  ', 'acme-corp'], /^the name must not be empty: say who or what the credential is for\n$/],
      [['create', 'x\ty', 'acme-corp'], /^the name must not hold control characters \(a newline, a tab, an escape\): credentials list shows it on one line\n$/],
      [['create', 'n'.repeat(201), 'acme-corp'], /^the name may be at most 200 characters; got 201\n$/],
      [['rotate', 'not-a-credential'], /^credential id must be a UUID, as npm run credentials -- list shows it; got "not-a-credential"\n$/],
    ])(
      '%j exits 1: %s',
      async (args, message) => {
        const result = await credentials(...(args as string[]));
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(message as RegExp);
      },
      30_000,
    );
  });
}
