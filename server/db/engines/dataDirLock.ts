// One process at a time per embedded data directory (PGLITE_DATA_DIR), as PostgreSQL's
// postmaster.pid keeps one postmaster per cluster. PGlite runs inside the process that
// opens it, so a second process opening the same directory would run a second PostgreSQL
// on the same files: its writes vanish or corrupt the catalog. The lock is a file in the
// directory naming its holder's pid; a holder that crashed leaves a file whose pid is no
// longer alive, which the next opener takes over (docs/decisions/0017-operator-commands-and-start.md).
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { DatabaseProblem } from './databaseProblem.js';

/** The lock's file name inside the data directory (PGlite's own postmaster.pid holds no real pid). */
export const LOCK_FILE = 'lookup.pid';

export interface DataDirLock {
  /** The directory, as resolved. */
  dir: string;
  /** Removes the lock file, if it is still this holder's. */
  release(): void;
}

interface Holder {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), so a reused pid is told apart. */
  startTicks?: string;
  text: string;
}

/** Directories this process holds, by resolved path: a second open in the same process is refused too. */
const held = new Map<string, string>();
let exitHookInstalled = false;

/** Takes `dir` for this process, or throws a DatabaseProblem naming the process that holds it. */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = prepare(dataDir);
  if (held.has(dir)) throw new DatabaseProblem(`PGLITE_DATA_DIR ${dir} is already open in this process (pid ${process.pid})`);
  const lockPath = join(dir, LOCK_FILE);
  const nonce = randomBytes(8).toString('hex');
  const text = [
    process.pid,
    startTicks(process.pid) ?? '',
    hostname(),
    new Date().toISOString(),
    relative(process.cwd(), process.argv[1] ?? '') || 'node',
    nonce,
    '',
  ].join('\n');
  // Written whole under a name of its own, then linked into place: link fails when the
  // lock exists, so no reader ever sees a half-written lock.
  const temp = join(dir, `${LOCK_FILE}.${process.pid}.${nonce}`);
  writeFileSync(temp, text);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(temp, lockPath);
        held.set(dir, text);
        installExitHook();
        return { dir, release: () => release(dir) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw problem(dir, error);
      }
      const holder = readHolder(lockPath);
      if (!holder) continue; // released meanwhile
      if (alive(holder)) throw inUse(dir, holder);
      takeOverStale(dir, lockPath, holder, nonce);
    }
    throw new DatabaseProblem(`PGLITE_DATA_DIR ${dir}: another process is taking the directory at the same time; try again`);
  } finally {
    unlinkQuietly(temp);
  }
}

/** Moves a dead holder's lock aside; if what moved was a newer holder's (a race), puts it back. */
function takeOverStale(dir: string, lockPath: string, stale: Holder, nonce: string): void {
  const aside = join(dir, `${LOCK_FILE}.stale.${process.pid}.${nonce}`);
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw problem(dir, error);
  }
  if (readFileSync(aside, 'utf8') !== stale.text) {
    try {
      linkSync(aside, lockPath);
    } catch {}
  }
  unlinkQuietly(aside);
}

function release(dir: string): void {
  const text = held.get(dir);
  if (text === undefined) return;
  held.delete(dir);
  const lockPath = join(dir, LOCK_FILE);
  try {
    if (readFileSync(lockPath, 'utf8') === text) unlinkSync(lockPath);
  } catch {}
}

/** A process that exits without closing its database (process.exit after a failure) leaves no lock behind. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const dir of [...held.keys()]) release(dir);
  });
}

/** The directory made where it is missing, and resolved; refused where it holds other things than a database. */
function prepare(dataDir: string): string {
  let dir: string;
  try {
    mkdirSync(dataDir, { recursive: true });
    dir = realpathSync(dataDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new DatabaseProblem(`PGLITE_DATA_DIR ${dataDir} is a file, not a directory: name a directory for the embedded database`);
    if (code === 'ENOTDIR') throw new DatabaseProblem(`PGLITE_DATA_DIR ${dataDir}: a part of that path is a file, not a directory`);
    throw problem(dataDir, error);
  }
  refuseForeignFiles(dir);
  return dir;
}

/**
 * A directory that holds files but no database (no PG_VERSION) is likely a mistaken path
 * (a home or project directory): the database's files are not spread among them. A
 * volume's lost+found, hidden entries and this lock's own files do not count.
 */
function refuseForeignFiles(dir: string): void {
  const entries = readdirSync(dir).filter((name) => name !== 'lost+found' && !name.startsWith('.') && !name.startsWith(LOCK_FILE));
  if (!entries.length || entries.includes('PG_VERSION')) return;
  const shown = entries.sort().slice(0, 3).join(', ');
  throw new DatabaseProblem(
    `PGLITE_DATA_DIR ${dir} holds other files (${shown}${entries.length > 3 ? ', …' : ''}) and no database: name a new or empty directory, or one the service made`,
  );
}

function readHolder(lockPath: string): Holder | undefined {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch {
    return undefined;
  }
  const [pid = '', ticks = ''] = text.split('\n');
  // A lock that does not parse is taken for a dead holder's: it was written by no live version of this code.
  return { pid: /^\d+$/.test(pid) ? Number(pid) : 0, startTicks: ticks || undefined, text };
}

/**
 * Whether the holder still runs. Its own pid is not: a container restarted on the same
 * volume runs as the same pid (1) as the process that left the lock, as PostgreSQL
 * reasons. Where the start time can be read (Linux), a pid now used by another process
 * is not either.
 */
function alive(holder: Holder): boolean {
  if (holder.pid <= 0 || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTicks(holder.pid);
  return !(holder.startTicks && now && now !== holder.startTicks);
}

/** Field 22 of /proc/<pid>/stat: when the process started; undefined where there is no /proc. */
function startTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function inUse(dir: string, holder: Holder): DatabaseProblem {
  const [, , host, since, command] = holder.text.split('\n');
  return new DatabaseProblem(
    `PGLITE_DATA_DIR ${dir} is in use by process ${holder.pid}${command ? ` (${command}` : ''}${since ? `, since ${since}` : ''}${host && host !== hostname() ? `, on ${host}` : ''}${command ? ')' : ''}: ` +
      'an embedded database is opened by one process at a time; stop that process first (docs/operating/embedded-database.md)',
  );
}

function problem(dir: string, error: unknown): DatabaseProblem {
  const { code, message } = error as NodeJS.ErrnoException;
  return new DatabaseProblem(`PGLITE_DATA_DIR ${dir}: ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : message}`);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}
