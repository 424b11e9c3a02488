// A long `npm run import` as an operator watches and stops it, on each engine: progress on
// stderr (a line every 5 s; a live line on a terminal), and SIGTERM to npm (as a supervisor
// sends it), SIGINT to the command, or Ctrl-C on a terminal stopping it with "import
// interrupted, nothing was written", exit 143 or 130, and the database as it was.
import { expect, it } from 'vitest';
import { describeOnEngines, engines } from '../helpers/databases.js';
import { bigFile, commandDatabase } from './commandSetup.js';
import { startProcess } from './process.js';

const progressLine =
  /import: (reading and checking|resolving|checking against the database|writing); [\d,]+ records read and checked \([\d,]+ records\/s\); \d+ s\n/;

describeOnEngines(engines, { perEngine: 'a long import stopped, on %s', placeholder: 'a long import stopped' }, (engine) => {
  const database = commandDatabase(engine);
  // Many seconds of work: 60,000 people and their employments (33 MB) on the embedded engine;
  // PostgreSQL writes those in about 5 s, one progress interval, so it gets four times as many.
  const people = engine === 'postgres' ? 240_000 : 60_000;
  let big: string;
  it('writes a progress line every 5 s, and stops on SIGTERM to npm or SIGINT to the command, writing nothing', async () => {
    big = database.file('', 'big.ndjson');
    bigFile(big, people);
    // (A first import migrates the database; the fingerprint is of the migrated one.)
    const first = startProcess('npm', ['run', '--silent', 'import', '--', database.file('{"type":"company","id":"first","name":"First"}')], database.env());
    expect(await first.exited, first.output()).toBe(0);
    const before = await database.fingerprint();

    // As a supervisor stops `npm run import`: SIGTERM to npm's pid alone; npm passes it on.
    // (On PGlite the first progress line comes as it writes, while its statements hold the event loop.)
    const npm = startProcess('npm', ['run', '--silent', 'import', '--', big], database.env());
    await npm.waitFor(progressLine);
    process.kill(npm.child.pid!, 'SIGTERM');
    expect(await npm.exited, npm.output()).toBe(143);
    expect(npm.output()).toMatch(/import interrupted, nothing was written\n$/);
    // (npm's grandchildren are gone with it; one that has just exited may wait a moment to be reaped.)
    await expect.poll(() => npm.groupAlive(), { timeout: 5_000 }).toBe(false);
    expect(await database.fingerprint()).toEqual(before);

    // SIGINT to the command itself.
    const command = startProcess(process.execPath, ['--import', 'tsx', 'server/cli/import.ts', big], database.env());
    await command.waitFor(progressLine);
    process.kill(command.child.pid!, 'SIGINT');
    expect(await command.exited).toBe(130);
    expect(command.output()).toMatch(/import interrupted, nothing was written\n$/);
    expect(await database.fingerprint()).toEqual(before);
  }, 600_000);

  it('shows a live line on a terminal, and stops on Ctrl-C there', async () => {
    const before = await database.fingerprint();
    // `script` gives the command a terminal; Ctrl-C typed there is SIGINT to the terminal's foreground group.
    const terminal = startProcess('script', ['-qefc', `npm run --silent import -- ${big}`, '/dev/null'], database.env());
    // (Each rewrite of the live line: a carriage return, then ESC [K to clear the line.)
    await terminal.waitFor(new RegExp(`\r${String.fromCharCode(27)}\\[Kimport: [a-z ]+; [\\d,]+ records read and checked \\([\\d,]+ records/s\\); \\d+ s`));
    terminal.child.stdin!.write('\x03');
    expect(await terminal.exited).toBe(130);
    expect(terminal.output()).toMatch(/import interrupted, nothing was written/);
    expect(await database.fingerprint()).toEqual(before);
  }, 600_000);
});
