// `--imports` measures on a PostgreSQL server of its own unless given `--database-url`: set
// as docs/operating/postgresql.md asks of production (durability on, shared_buffers room
// for the data, max_wal_size several GB), with no other database or session on it. On
// PostgreSQL's defaults (shared_buffers 128 MB) a change file's upkeep evicted the pages
// the searches read and the file's own, and its time moved with whatever else the
// machine's cluster held. Its data directory is kept between runs (bench/.data), so the
// dataset is built once; settings are written anew at each start.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initCluster, node, ownedByPostgres, serverBinaries, stopNow } from '../../support/postgresServer.js';
import { freePort } from '../../support/serviceProcess.js';

const benchData = fileURLToPath(new URL('../.data/', import.meta.url));
const MB = 2 ** 20;

/** A quarter of the machine's memory, at most 8 GB: the usual starting point for a dedicated server. */
export const sharedBuffersMb = (totalBytes = os.totalmem()) => Math.min(8192, Math.floor(totalBytes / 4 / MB));

/** The settings the server runs with, stated in the report beside the version. */
export const benchServerSettings = (sharedMb = sharedBuffersMb()) => `
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = on
synchronous_commit = on
full_page_writes = on
shared_buffers = '${sharedMb}MB'
max_wal_size = '4GB'
max_connections = 100
log_min_messages = warning
`;

export interface BenchServer {
  /** The bench database's URL on this server. */
  databaseUrl: string;
  /** Where the data is kept, for the report. */
  dir: string;
  stop(): Promise<void>;
}

/** Starts the bench's own server (made on first use); `database` on it is where the dataset goes (ensureDataset makes it). */
export async function startBenchServer(database: string, log: (line: string) => void, dataRoot = benchData): Promise<BenchServer> {
  if (!serverBinaries)
    throw new Error(
      '--imports makes a PostgreSQL server of its own, which needs the server binaries (/usr/lib/postgresql/<version>/bin); or give --database-url',
    );
  const binaries = serverBinaries;
  const dir = join(dataRoot, `imports-postgres-${binaries.split('/').at(-2)}`);
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    log(`imports: making the bench's own PostgreSQL server in ${dir}`);
    mkdirSync(dir, { recursive: true });
    ownedByPostgres(dir);
    await initCluster(binaries, dir, "\ninclude_if_exists = 'bench.conf'\n");
  }
  writeFileSync(join(dir, 'bench.conf'), benchServerSettings());
  // A server a stopped run left behind is stopped first: it would hold the port and the data.
  stopNow(binaries, dir);
  const server = node(binaries, dir, await freePort());
  const stopAtExit = () => stopNow(binaries, dir);
  process.once('exit', stopAtExit);
  await server.start();
  return {
    databaseUrl: server.url.replace(/\/postgres$/, `/${encodeURIComponent(database)}`),
    dir,
    stop: async () => {
      process.off('exit', stopAtExit);
      await server.stop();
    },
  };
}
