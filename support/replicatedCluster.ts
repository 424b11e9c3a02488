// A PostgreSQL primary and a hot standby streaming from it, made for one test file (or one
// `npm run bench -- --replica`) and removed after it (on failure too, and at process exit
// if it never got there): the primary by initdb on a port of its own (wal_level=replica, a
// replication line in its pg_hba.conf), the standby by pg_basebackup -R from it, each
// started with pg_ctl, as the postgres user when run as root. Nothing touches the machine's own clusters.
// Replay is paused and resumed on demand (pg_wal_replay_pause), which makes lag at will;
// the primary records commit timestamps, which the asOf tests hold answers to.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { exec, initCluster, type Node, node, ownedByPostgres, serverBinaries, stopNow as stopServer } from './postgresServer.js';
import { freePort } from './serviceProcess.js';

export type { Node };

/** PgBouncer's binary, where the Debian package is installed. */
export const pgbouncerBinary: string | undefined = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path));

/** In CI a missing component fails the run; elsewhere the tests that need it are skipped, saying why. */
export const inCi = process.env.CI === 'true' || process.env.CI === '1';

export interface PgBouncer {
  readonly port: number;
  /** The same database as the node's, through PgBouncer. */
  readonly url: string;
  stop(): Promise<void>;
}

export interface ReplicatedCluster {
  primary: Node;
  standby: Node;
  /**
   * PgBouncer in front of `node`, in transaction pooling mode with few server connections
   * (so clients really share them), accepting no startup parameter it does not track.
   */
  startPgBouncer(node: Node, options?: { poolSize?: number; ignoreStartupParameters?: string }): Promise<PgBouncer>;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops both servers and deletes their directories. */
  destroy(): Promise<void>;
}

const settings = (port: number, socketDir: string) => `
listen_addresses = '127.0.0.1'
port = ${port}
unix_socket_directories = '${socketDir}'
wal_level = replica
max_wal_senders = 5
wal_keep_size = '256MB'
hot_standby = on
track_commit_timestamp = on
max_standby_streaming_delay = '30s'
shared_buffers = '32MB'
max_connections = 60
fsync = off
full_page_writes = off
log_min_messages = warning
`;

/** Every cluster still running, stopped at exit however the process ends its run. */
const running = new Set<{ dirs: string[]; root: string; bouncers: string[] }>();
process.once('exit', () => {
  for (const cluster of running) stopNow(cluster);
});

function stopNow({ dirs, root, bouncers }: { dirs: string[]; root: string; bouncers: string[] }): void {
  for (const pidFile of bouncers) stopBouncer(pidFile);
  for (const dir of dirs) stopServer(serverBinaries!, dir);
  rmSync(root, { recursive: true, force: true });
}

function stopBouncer(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGINT');
  } catch {}
}

/**
 * Makes the primary and its standby, both running. `settings`: postgresql.conf lines after
 * the defaults, for both (the standby's copy is the primary's): the tests' defaults trade
 * durability for speed, the bench puts it back.
 */
export async function startReplicatedCluster(settingsAfter = ''): Promise<ReplicatedCluster> {
  if (!serverBinaries) throw new Error('the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) are not installed');
  const binaries = serverBinaries;
  const root = mkdtempSync(join(tmpdir(), 'lookup-replication-'));
  ownedByPostgres(root);
  const primaryDir = join(root, 'primary');
  const standbyDir = join(root, 'standby');
  const entry = { dirs: [standbyDir, primaryDir], root, bouncers: [] as string[] };
  running.add(entry);
  try {
    const [primaryPort, standbyPort] = [await freePort(), await freePort()];
    await initCluster(binaries, primaryDir, settings(primaryPort, root) + settingsAfter);
    appendFileSync(join(primaryDir, 'pg_hba.conf'), '\nhost replication postgres 127.0.0.1/32 trust\n');
    const primary = node(binaries, primaryDir, primaryPort);
    await primary.start();
    await exec(join(binaries, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    // -R wrote primary_conninfo and standby.signal; the copied settings name the primary's port.
    appendFileSync(join(standbyDir, 'postgresql.auto.conf'), `port = ${standbyPort}\n`);
    const standby = node(binaries, standbyDir, standbyPort);
    await standby.start();

    const cluster: ReplicatedCluster = {
      primary,
      standby,
      pauseReplay: async () => {
        await standby.sql('SELECT pg_wal_replay_pause()');
        // Paused once replay has stopped, not merely been asked to.
        for (let i = 0; i < 500; i++) {
          const [row] = await standby.sql<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state');
          if (row!.state === 'paused') return;
          await new Promise((r) => setTimeout(r, 10));
        }
        throw new Error('standby replay did not pause');
      },
      resumeReplay: async () => {
        await standby.sql('SELECT pg_wal_replay_resume()');
      },
      async startPgBouncer(target, { poolSize = 2, ignoreStartupParameters = '' } = {}) {
        if (!pgbouncerBinary) throw new Error('PgBouncer is not installed (Debian package pgbouncer)');
        const port = await freePort();
        const dir = join(root, `pgbouncer-${port}`);
        mkdirSync(dir);
        ownedByPostgres(dir);
        const ini = join(dir, 'pgbouncer.ini');
        writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
        writeFileSync(
          ini,
          `[databases]
* = host=127.0.0.1 port=${target.port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
pool_mode = transaction
default_pool_size = ${poolSize}
max_client_conn = 500
server_reset_query =
ignore_startup_parameters = ${ignoreStartupParameters}
logfile = ${join(dir, 'pgbouncer.log')}
pidfile = ${join(dir, 'pgbouncer.pid')}
`,
        );
        const pidFile = join(dir, 'pgbouncer.pid');
        entry.bouncers.push(pidFile);
        await exec(pgbouncerBinary, ['-d', ini]);
        // Listening once a connection gets through.
        const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
        for (let i = 0; ; i++) {
          try {
            const client = new pg.Client({ connectionString: url });
            await client.connect();
            await client.end();
            break;
          } catch (error) {
            if (i > 100) throw error;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        return {
          port,
          url,
          stop: async () => {
            stopBouncer(pidFile);
            entry.bouncers.splice(entry.bouncers.indexOf(pidFile), 1);
          },
        };
      },
      async caughtUp(timeoutMs = 30_000) {
        const [{ lsn }] = (await primary.sql<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')) as [{ lsn: string }];
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
          const [row] = await standby.sql<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]);
          if (row!.done) return;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error(`the standby did not replay up to ${lsn} within ${timeoutMs} ms`);
      },
      async destroy() {
        running.delete(entry);
        stopNow(entry);
      },
    };
    return cluster;
  } catch (error) {
    running.delete(entry);
    stopNow(entry);
    throw error;
  }
}

/**
 * `describe` for tests that need the PostgreSQL server binaries (and PgBouncer when
 * `needsPgBouncer`): skipped with the reason where they are absent, failed in CI.
 */
export function whereReplicationRuns(needsPgBouncer = false): { ok: boolean; missing?: string } {
  if (!serverBinaries) return { ok: false, missing: 'the PostgreSQL server binaries (/usr/lib/postgresql/<version>/bin: initdb, pg_ctl, pg_basebackup)' };
  if (needsPgBouncer && !pgbouncerBinary) return { ok: false, missing: 'PgBouncer (Debian package pgbouncer)' };
  return { ok: true };
}
