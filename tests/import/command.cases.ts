// `npm run import` as an operator runs it, mistakes included, on a persistent embedded
// database (PGLITE_DATA_DIR) and on PostgreSQL: text that is not UTF-8 refused with every
// problem listed, the snapshot safeguard and --max-deletions, and --dry-run. Exit codes:
// 0 done, 1 usage, 2 input refused. (Progress and signals: signals.slow.test.ts.)
import { expect, it } from 'vitest';
import { runCommand } from '../helpers/commands.js';
import { describeOnEngines, type Engine } from '../helpers/databases.js';
import { commandDatabase, company, employee } from './commandSetup.js';

/** stderr without the progress lines a slow run writes every 5 s (signals.slow.test.ts checks those). */
const problems = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => !/^import( \(dry run\))?: [a-z ]+; /.test(line))
    .join('\n');

export function importCommands(engines: readonly Engine[]): void {
  describeOnEngines(engines, { perEngine: 'npm run import on %s', placeholder: 'npm run import' }, (engine) => {
    const database = commandDatabase(engine);
    const importing = (...args: string[]) => runCommand('import', args, database.env());
    const file = (content: string | Buffer) => database.file(content);
    const fingerprint = () => database.fingerprint();

    // acme: 30 employments, globex: 10. (Each command is a process that opens the database: minutes on a busy machine.)
    const base = [company('acme'), company('globex'), ...Array.from({ length: 40 }, (_, i) => employee(i, i < 30 ? 'acme' : 'globex'))];

    it('loads a file, then refuses text that is not UTF-8 naming each line and offset with the other problems, writing nothing', async () => {
      const loaded = await importing(file(base.join('\n')));
      expect(loaded.code, loaded.stderr).toBe(0);
      expect(loaded.stdout).toMatch(/employee: 40 added/);
      const before = await fingerprint();

      const first = `${company('new-co', 'Émile & Co')}\n`;
      const latin1 = await importing(
        file(
          Buffer.concat([
            Buffer.from(first),
            Buffer.from(`${company('latin-co', 'Émile')}\n`, 'latin1'),
            Buffer.from('{"type":"company","id":"x-co","name":x}\n'),
          ]),
        ),
      );
      expect(latin1.code).toBe(2);
      const offset = Buffer.byteLength(first) + company('latin-co', 'Émile').indexOf('É');
      expect(problems(latin1.stderr)).toBe(
        [
          'import rejected, nothing was written. 2 problem(s):',
          `  line 2: not valid UTF-8 at byte offset ${offset}: byte 0xC9 starts a 2-byte character but 0x6D follows it (is the file Latin-1 or Windows-1252? it must be UTF-8)`,
          "  line 3: not valid JSON at column 38: Unexpected token 'x'",
          '',
        ].join('\n'),
      );
      const utf16 = await importing(file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(first, 'utf16le')])));
      expect(utf16.code).toBe(2);
      expect(problems(utf16.stderr)).toBe('import rejected, nothing was written: line 1: UTF-16 LE byte-order mark: the file must be UTF-8\n');
      const truncatedArray = await importing(file(`[\n${company('array-co')},\n${company('array-co-2')}\n`));
      expect(truncatedArray.code).toBe(2);
      expect(problems(truncatedArray.stderr)).toBe(
        "import rejected, nothing was written: line 4, column 1 (the end of the file): not valid JSON: expected ','\n",
      );
      expect(await fingerprint()).toEqual(before);
    }, 600_000);

    it('refuses a snapshot that would delete more than --max-deletions of a company, dry-runs it, and applies it when allowed', async () => {
      const before = await fingerprint();
      const tenOfAcme = file(base.slice(2, 12).join('\n'));
      const refused = await importing(tenOfAcme, '--snapshot', 'acme');
      expect(refused.code).toBe(2);
      expect(problems(refused.stderr)).toBe(
        'import rejected, nothing was written. 1 problem(s):\n' +
          '  --snapshot acme: would delete 20 of the 30 employments stored for company acme (66.7%), more than --max-deletions 20 allows; ' +
          'if the source really dropped them, run again with --max-deletions 67 (100 allows any)\n',
      );
      const dryRun = await importing('--dry-run', tenOfAcme, '--snapshot', 'acme', '--max-deletions', '67');
      expect(dryRun.code, dryRun.stderr).toBe(0);
      expect(dryRun.stdout).toMatch(
        /^dry run, nothing was written: the file would import 10 record\(s\) \(checked in \d+ ms\)\n {2}employee: 0 added, 0 changed, 10 unchanged, 20 deleted, 0 already absent\n$/,
      );
      expect(await fingerprint()).toEqual(before);

      // An empty file is never a snapshot, whatever the flag says.
      const empty = await importing(file('\n\n'), '--snapshot', 'globex', '--max-deletions', '100');
      expect(empty.code).toBe(2);
      expect(problems(empty.stderr)).toMatch(
        /\n {2}--snapshot globex: the file holds no records: as a snapshot it would delete every employment of globex; refused whatever --max-deletions says/,
      );
      for (const [args, message] of [
        [['--max-deletions', '150', '--snapshot', 'acme'], '--max-deletions must be a percentage from 0 to 100, not "150"'],
        [['--max-deletions', '50'], '--max-deletions applies to --snapshot, and none is given'],
      ] as const) {
        const usage = await importing(tenOfAcme, ...args);
        expect(usage.code).toBe(1);
        expect(usage.stderr.split('\n')[0]).toBe(message);
      }
      expect(await fingerprint()).toEqual(before);

      const allowed = await importing(tenOfAcme, '--snapshot', 'acme', '--max-deletions', '67');
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stdout).toMatch(/^imported 10 record\(s\) in \d+ ms\n {2}employee: 0 added, 0 changed, 10 unchanged, 20 deleted, 0 already absent\n$/);
    }, 600_000);
  });
}
