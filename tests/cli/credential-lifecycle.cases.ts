// `npm run credentials` create, grant, revoke-company, set-fields, set-purpose, rotate,
// set-expiry and list, run as an operator runs them: as processes, on a persistent embedded
// database and on PostgreSQL. Mistakes (unknown credential or company, bad duration or
// instant, a missing or bad field list or purpose, a credential left with no company)
// exit 1 with a message that says what is wrong, and change nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
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
      const created = await credentials('create', 'ci reporting', 'acme-corp', '--expires', '30d', '--fields', 'email,name', '--purpose', 'CI: weekly report');
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toContain('\nreads name,email; purpose: CI: weekly report\n');
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
      const block = listed.stdout.slice(listed.stdout.indexOf(id)).split('\n').slice(0, 3).join('\n');
      expect(block).toMatch(new RegExp(`^${id}  active\\s+ci reporting  \\[acme-corp, secret-co\\]\\n    reads name,email; purpose: CI: weekly report\\n`));
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
          expect(await findActiveCredential(db, hashToken(token))).toMatchObject({
            companyList: ['acme-corp', 'secret-co'],
            fields: ['name', 'email'],
            purpose: 'CI: weekly report',
          });
      } finally {
        if (!database) await db.close();
      }

      // Rotating again without an overlap ends both earlier tokens at once, and says so.
      const again = await credentials('rotate', id);
      expect(again.stdout).toMatch(/the token an earlier rotation replaced \(overlap until 20\d\d-\S+\) stops working now/);
      expect(again.stdout).toContain('the previous token stops working now');
    }, 120_000);

    it('changes what a credential reads and why, and marks those created before purposes for review', async () => {
      const created = await credentials('create', 'scheduling', 'acme-corp', '--fields', 'name,email', '--purpose', 'shift scheduling');
      expect(created.code, created.stderr).toBe(0);
      const id = /created credential ([0-9a-f-]{36})/.exec(created.stdout)![1]!;
      const token = /token \(shown once, store it now\): (plk_\S+)/.exec(created.stdout)![1]!;

      const narrowed = await credentials('set-fields', id, 'email,name,phone');
      expect(narrowed.code, narrowed.stderr).toBe(0);
      expect(narrowed.stdout).toBe(`credential ${id} now reads name,email,phone (was name,email)\nrunning servers follow within CREDENTIAL_CACHE_MS\n`);
      expect((await credentials('set-fields', id, 'phone,name,email')).stdout).toContain(`credential ${id} unchanged: reads name,email,phone\n`);
      expect((await credentials('set-fields', id, 'all')).stdout).toContain(`credential ${id} now reads all (was name,email,phone)\n`);
      const purposed = await credentials('set-purpose', id, 'rota planning and shift invitations');
      expect(purposed.stdout).toBe(
        `credential ${id} purpose: rota planning and shift invitations (was: shift scheduling)\nrunning servers follow within CREDENTIAL_CACHE_MS\n`,
      );
      expect((await credentials('set-purpose', id, 'rota planning and shift invitations')).stdout).toContain(
        `credential ${id} unchanged: purpose: rota planning and shift invitations\n`,
      );

      // A credential as migration 006 left it: every group, the purpose that says none was given.
      await onDatabase((db) =>
        db.query('UPDATE credentials SET fields = $2, purpose = $3 WHERE id = $1', [id, ['name', 'email'], 'not recorded (created before purposes)']),
      );
      const listed = await credentials('list');
      expect(listed.stdout).toContain(
        `${id}  active                            scheduling  [acme-corp]\n    reads name,email; purpose: not recorded (created before purposes)  <- review: set-purpose, set-fields\n`,
      );
      expect(listed.stdout).toMatch(
        /\nto review: \d+ credentials? created before purposes: give each its purpose \(set-purpose\) and only the field groups it needs \(set-fields\)\n$/,
      );
      expect((await credentials('set-purpose', id, 'shift scheduling')).code).toBe(0);
      expect((await credentials('list')).stdout).not.toContain(`review`);
      await onDatabase(async (db) =>
        expect(await findActiveCredential(db, hashToken(token))).toMatchObject({ fields: ['name', 'email'], purpose: 'shift scheduling' }),
      );
    }, 120_000);

    /** `use` on the database in this process (the embedded one while no command runs). */
    async function onDatabase<T>(use: (db: Database) => Promise<T>): Promise<T> {
      const db = database?.db ?? (await openDatabase({ pgliteDataDir: join(dir, 'db') }));
      try {
        return await use(db);
      } finally {
        if (!database) await db.close();
      }
    }

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
        const created = await credentials('create', 'short-lived', 'acme-corp', 'acme-corp', '--fields', 'all', '--purpose', 'tests');
        expect(created.code, created.stderr).toBe(0);
        expect(created.stdout).toContain('"short-lived" for acme-corp\n');
        const id = /created credential ([0-9a-f-]{36})/.exec(created.stdout)![1]!;
        const refused = await credentials('create', 'refused', 'acme-corp', 'no-such-co', '--fields', 'all', '--purpose', 'tests');
        expect(refused.code).toBe(1);
        expect((await credentials('list')).stdout).not.toContain('refused');
        const unknownCompany = await credentials('revoke-company', id, 'acme-corp', 'no-such-co');
        expect(unknownCompany.code).toBe(1);
        expect(unknownCompany.stderr).toContain('unknown companies: no-such-co (import them first)');
        // Its last company: that would leave a credential answering 403 to everything, which is `revoke`.
        const before = (await credentials('list')).stdout;
        const last = await credentials('revoke-company', id, 'acme-corp');
        expect(last.code).toBe(1);
        expect(last.stderr).toBe(
          `credential ${id} would be left with no company and answer 403 to everything; to stop it, revoke it (npm run credentials -- revoke ${id})\n`,
        );
        expect((await credentials('list')).stdout).toBe(before);
        const past = await credentials('set-expiry', id, '2020-01-01T00:00:00Z');
        expect(past.code).toBe(1);
        expect(past.stderr).toContain('the expiry must be in the future (to stop a credential now, revoke it)');
        expect((await credentials('revoke', id)).code).toBe(0);
        for (const args of [
          ['grant', id, 'globex'],
          ['set-fields', id, 'name'],
          ['set-purpose', id, 'another'],
        ]) {
          const onRevoked = await credentials(...args);
          expect(onRevoked.code, args.join(' ')).toBe(1);
          expect(onRevoked.stderr).toBe(`credential ${id} is revoked; create a new one\n`);
        }
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
      [['create', 'x', 'acme-corp', '--fields', 'all', '--purpose', 'p', '--expires', '2027-01-01'], /--expires: "2027-01-01" is neither an RFC 3339 instant/],
      [['grant', id, 'acme-corp', '--overlap', '1h'], /--overlap belongs to rotate/],
      [['rotate', id, '--overlp', '1h'], /^unknown option --overlp\nusage: npm run credentials/],
      [['grant', id], /^grant takes at least 2 arguments; got 1\nusage: npm run credentials -- <command>/],
      [
        ['delete', id],
        /^unknown command "delete" \(one of create, list, grant, revoke-company, set-fields, set-purpose, rotate, set-expiry, revoke\)\nusage: /,
      ],
      [['create', '  ', 'acme-corp'], /^the name must not be empty: say who or what the credential is for\n$/],
      [['create', 'x\ty', 'acme-corp'], /^the name must not hold control characters \(a newline, a tab, an escape\): credentials list shows it on one line\n$/],
      [['create', 'n'.repeat(201), 'acme-corp'], /^the name may be at most 200 characters; got 201\n$/],
      // A new credential's groups and purpose: both required, no default, each read by the one rule.
      [['create', 'x', 'acme-corp', '--purpose', 'p'], /^create needs --fields <groups>: the field groups the credential reads \(all for every one\)\nusage: /],
      [['create', 'x', 'acme-corp', '--fields', 'all'], /^create needs --purpose "<why>": one line saying why the credential reads personal data\nusage: /],
      [
        ['create', 'x', 'acme-corp', '--fields', 'name,nmae', '--purpose', 'p'],
        /^--fields: unknown field group "nmae": the groups are name, dateOfBirth, gender, email, phone, address, externalIds, membership, participation, coverage, or all\n$/,
      ],
      [['create', 'x', 'acme-corp', '--fields', 'all,name', '--purpose', 'p'], /^--fields: all names every group: give it alone\n$/],
      [['create', 'x', 'acme-corp', '--fields', ' , ', '--purpose', 'p'], /^--fields: no field group given: name some of name, dateOfBirth, .*, or all\n$/],
      [['create', 'x', 'acme-corp', '--fields', 'name', '--purpose', '  '], /^the purpose must not be empty: say why the credential reads personal data\n$/],
      [['create', 'x', 'acme-corp', '--fields', 'name', '--purpose', 'p'.repeat(501)], /^the purpose may be at most 500 characters; got 501\n$/],
      [
        ['create', 'x', 'acme-corp', '--fields', 'name', '--purpose', 'line\nbreak'],
        /^the purpose must not hold control characters \(a newline, a tab, an escape\): credentials list shows it on one line\n$/,
      ],
      [
        ['create', 'x', 'acme-corp', '--fields', 'name', '--purpose', 'not recorded (created before purposes)'],
        /^"not recorded \(created before purposes\)" marks credentials created before purposes: say why this one reads personal data\n$/,
      ],
      [['grant', id, 'acme-corp', '--fields', 'all'], /^--fields belongs to create \(use set-fields to change it\)\nusage: /],
      [['set-expiry', id, 'never', '--purpose', 'p'], /^--purpose belongs to create \(use set-purpose to change it\)\nusage: /],
      [
        ['set-fields', id, 'emial'],
        /^unknown field group "emial": the groups are name, dateOfBirth, gender, email, phone, address, externalIds, membership, participation, coverage, or all\n$/,
      ],
      [['set-fields', id, 'name', 'email'], /^set-fields takes 2 arguments; unexpected "email"\nusage: /],
      [['set-purpose', id, 'a\tb'], /^the purpose must not hold control characters/],
      [['set-fields', 'not-a-credential', 'all'], /^credential id must be a UUID, as npm run credentials -- list shows it; got "not-a-credential"\n$/],
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
