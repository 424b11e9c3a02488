// One process at a time per embedded data directory (server/db/engines/dataDirLock.ts): a second
// opener is refused at once, naming the directory and the holder's pid; a lock whose
// holder is gone (crashed, or a pid since reused) is taken over. Real files, real
// processes; the service-and-commands flow is embedded-lock.slow.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataDir } from '../../server/db/engines/dataDirLock.js';
import { runCommand } from '../helpers/commands.js';
import { openMigratedDataDir } from '../helpers/databases.js';

const root = mkdtempSync(join(tmpdir(), 'lookup-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir);
  return realpathSync(dir);
};

/** A live process that is not this one (it only waits), to hold or have held a lock. */
const others: ChildProcess[] = [];
function otherProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  others.push(child);
  return child;
}
afterEach(() => {
  for (const child of others.splice(0)) child.kill('SIGKILL');
});

/** A lock file as a holder with `pid` (and, on Linux, its start time) writes it. */
function lockOf(pid: number, startTicks = ''): string {
  return [pid, startTicks, 'some-host', '2026-11-28T06:00:00.000Z', 'server/main.ts', 'abc', ''].join('\n');
}
const ticksOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};

describe('the embedded data directory lock', () => {
  it('is refused to a second opener in the same process, and free again once released', () => {
    const dir = freshDir();
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
    expect(() => lockDataDir(dir)).toThrow(`PGLITE_DATA_DIR ${dir} is already open in this process (pid ${process.pid})`);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir).release();
  });

  it('is refused a directory of other files (a mistaken path), a file, and a path through a file; taken in an empty volume', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expect(() => lockDataDir(dir)).toThrow(
      `PGLITE_DATA_DIR ${dir} holds other files (notes.txt) and no database: name a new or empty directory, or one the service made`,
    );
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const file = join(dir, 'notes.txt');
    expect(() => lockDataDir(file)).toThrow(`PGLITE_DATA_DIR ${file} is a file, not a directory: name a directory for the embedded database`);
    expect(() => lockDataDir(join(file, 'data'))).toThrow(`PGLITE_DATA_DIR ${join(file, 'data')}: a part of that path is a file, not a directory`);
    // A new volume's lost+found and hidden entries are not someone's files; a database's own directory is taken.
    const volume = freshDir();
    mkdirSync(join(volume, 'lost+found'));
    writeFileSync(join(volume, '.keep'), '');
    lockDataDir(volume).release();
    writeFileSync(join(dir, 'PG_VERSION'), '17');
    lockDataDir(dir).release();
  });

  it('is refused while another live process holds it, naming the directory and its pid; taken over once that process is gone', async () => {
    const dir = freshDir();
    const holder = otherProcess();
    await new Promise((resolve) => holder.once('spawn', resolve));
    writeFileSync(join(dir, LOCK_FILE), lockOf(holder.pid!, process.platform === 'linux' ? ticksOf(holder.pid!) : ''));
    expect(() => lockDataDir(dir)).toThrow(
      `PGLITE_DATA_DIR ${dir} is in use by process ${holder.pid} (server/main.ts, since 2026-11-28T06:00:00.000Z, on some-host): an embedded database is opened by one process at a time`,
    );
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
    lock.release();
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose pid now belongs to another process (a different start time)', async () => {
    const dir = freshDir();
    const stranger = otherProcess();
    await new Promise((resolve) => stranger.once('spawn', resolve));
    writeFileSync(join(dir, LOCK_FILE), lockOf(stranger.pid!, '1'));
    lockDataDir(dir).release();
  });

  it("takes over a lock naming this process's own pid (a container restarted as pid 1), or one that does not parse", () => {
    const dir = freshDir();
    writeFileSync(join(dir, LOCK_FILE), lockOf(process.pid, '1'));
    lockDataDir(dir).release();
    writeFileSync(join(dir, LOCK_FILE), 'garbage');
    lockDataDir(dir).release();
  });

  it('refuses a command while this process has the database open, and lets it run once it is closed', async () => {
    const dir = join(freshDir(), 'db');
    const env = { ...process.env, DATABASE_URL: '', PGLITE_DATA_DIR: dir };
    const db = await openMigratedDataDir(dir);
    let refused: Awaited<ReturnType<typeof runCommand>>;
    try {
      refused = await runCommand('credentials', ['list'], env);
    } finally {
      await db.close();
    }
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^database error: PGLITE_DATA_DIR ${realpathSync(dir)} is in use by process ${process.pid} \\(.*\\): an embedded database is opened by one process at a time; stop that process first \\(docs/operating/embedded-database\\.md\\)\\n$`,
      ),
    );
    const listed = await runCommand('credentials', ['list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^no credentials yet/);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 180_000);
});
