// A PostgreSQL server of a test's or the bench's own, run from the Debian binaries with
// initdb and pg_ctl (as the postgres user when run as root), on a port of its own: the
// parts a replicated pair (replicatedCluster.ts) and the import bench's server share.
// Nothing here touches the machine's own clusters.
import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The newest PostgreSQL server binaries installed the Debian way, or undefined. */
export const serverBinaries: string | undefined = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_basebackup')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, 'bin') : undefined;
})();

const asRoot = process.getuid?.() === 0;
const postgresUser = asRoot ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : undefined;
const postgresGroup = asRoot ? Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) : undefined;

/** Hands a directory to the postgres user when run as root (the server refuses to run as root). */
export function ownedByPostgres(dir: string): void {
  if (asRoot) chownSync(dir, postgresUser!, postgresGroup!);
}

/** Runs a server binary as the postgres user (PostgreSQL refuses to run as root). */
export function asPostgres(binary: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
}

/** Runs a server binary; its failure says the command and what it printed. */
export async function exec(binary: string, args: string[], timeout = 60_000): Promise<string> {
  const [file, argv] = asPostgres(binary, args);
  try {
    return (await run(file, argv, { timeout })).stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${binary} ${args.join(' ')}: ${e.stderr || e.message}`);
  }
}

/** A new cluster in `dir` (which must not hold one), its postgresql.conf ending with `settings`. */
export async function initCluster(binaries: string, dir: string, settings: string): Promise<void> {
  await exec(join(binaries, 'initdb'), ['-D', dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions']);
  appendFileSync(join(dir, 'postgresql.conf'), settings);
}

export interface Node {
  readonly port: number;
  readonly dir: string;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  start(): Promise<void>;
  /** pg_ctl stop (fast): connections are closed, the port refuses. */
  stop(): Promise<void>;
  /** SIGSTOP to the postmaster and every backend: open connections hang, new ones never finish their handshake. */
  freeze(): void;
  thaw(): void;
  /** One statement on a connection of its own, as the superuser. */
  sql<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
}

/** The server of the cluster in `dir`, listening on 127.0.0.1:`port` once started. */
export function node(binaries: string, dir: string, port: number): Node {
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const pids = (): number[] => {
    const pidFile = join(dir, 'postmaster.pid');
    if (!existsSync(pidFile)) return [];
    const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)])
      .toString()
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter(Boolean);
    return [postmaster, ...children];
  };
  const signalAll = (signal: NodeJS.Signals) => {
    for (const pid of pids()) {
      try {
        process.kill(pid, signal);
      } catch {}
    }
  };
  return {
    port,
    dir,
    url,
    start: async () => {
      await exec(join(binaries, 'pg_ctl'), ['-D', dir, '-l', join(dir, 'server.log'), '-o', `-p ${port}`, '-w', '-t', '60', 'start']);
    },
    stop: async () => {
      signalAll('SIGCONT');
      await exec(join(binaries, 'pg_ctl'), ['-D', dir, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    freeze: () => signalAll('SIGSTOP'),
    thaw: () => signalAll('SIGCONT'),
    async sql(text, params) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
      await client.connect();
      try {
        return (await client.query(text, params)).rows;
      } finally {
        await client.end();
      }
    },
  };
}

/** Stops the server in `dir` at once, if it runs (at exit, where nothing can be awaited). */
export function stopNow(binaries: string, dir: string): void {
  if (!existsSync(join(dir, 'postmaster.pid'))) return;
  const [file, argv] = asPostgres(join(binaries, 'pg_ctl'), ['-D', dir, '-m', 'immediate', '-w', 'stop']);
  try {
    execFileSync(file, argv, { stdio: 'ignore', timeout: 30_000 });
  } catch {}
}
