// How every operator command answers an operator asking how to call it, and one calling it
// wrongly: --help prints the usage on stdout and exits 0 (doing nothing else); an unknown
// option, a missing or extra argument, or a file that cannot be read is named in one line
// (before the usage where the usage helps), exit 1. No database is configured: none of these
// may open one.
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/commands.js';

const noDatabase = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: '' };
const cli = (script: string, ...args: string[]) => runCommand(script, args, noDatabase);

/** Each command's file under server/cli/, and how its usage begins. */
const COMMANDS: [string, RegExp][] = [
  ['import', /^usage: npm run import -- /],
  ['credentials', /^usage: npm run credentials -- <command>/],
  ['erase', /^usage: /],
  ['accessAudit', /^usage: /],
  ['migrate', /^usage: npm run migrate/],
  ['demo', /^usage: npm run demo:export/],
  ['webhooks', /^usage: npm run webhooks -- <command>/],
];

describe('operator commands asked for help or given an unknown option', () => {
  it.concurrent.each(COMMANDS)('%s --help prints its usage and exits 0', async (script, usage) => {
    const help = await cli(script, '--help');
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(usage);
    expect(help.stderr).toBe('');
  });

  it.concurrent.each(COMMANDS.filter(([script]) => script !== 'migrate'))(
    '%s --bogus names the option in one line, then the usage, exit 1',
    async (script, usage) => {
      const wrong = await cli(script, '--bogus');
      expect(wrong.code).toBe(1);
      const [first, ...rest] = wrong.stderr.split('\n');
      expect(first).toBe('unknown option --bogus');
      expect(rest.join('\n')).toMatch(usage);
      expect(wrong.stdout).toBe('');
    },
  );

  it.concurrent.each([
    ['erase', ['persn', 'x'], 'unknown command "persn" (one of person, company, employment, vacuum)'],
    ['erase', ['person'], 'person takes 1 argument; got 0'],
    ['erase', ['vacuum', 'now'], 'vacuum takes 0 arguments; unexpected "now"'],
    ['accessAudit', [], 'no command given (one of person, employee, credential)'],
    ['credentials', ['grant', '00000000-0000-4000-8000-0000000000ff'], 'grant takes at least 2 arguments; got 1'],
    ['import', [], 'no file given'],
    ['import', ['a.ndjson', 'b.ndjson'], 'one file at a time; unexpected "b.ndjson"'],
    ['import', ['no-such-file.ndjson'], 'no-such-file.ndjson: no such file'],
    ['import', ['tests'], 'tests is a directory: name the file to import'],
  ])('%s %j says what is wrong in its first line, exit 1', async (script, args, problem) => {
    const wrong = await cli(script, ...args);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.split('\n')[0]).toBe(problem);
  });

  it('demo:export checks its numbers before writing anything', async () => {
    for (const args of [['abc'], ['0'], ['100001'], ['5', 'x'], ['5', '1', '2']]) {
      const refused = await cli('demo', ...args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.split('\n')[0]).toMatch(/^(people|seed) must be a whole number|^at most two arguments/);
    }
    const written = await cli('demo', '3', '7');
    expect(written.code, written.stderr).toBe(0);
    expect(
      written.stdout
        .trim()
        .split('\n')
        .every((line) => JSON.parse(line).type),
    ).toBe(true);
  });
});
