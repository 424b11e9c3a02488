// Opening the database at start, for the service and the commands alike: PostgreSQL that
// cannot be reached yet (starting, restarting, its address not yet in DNS, as happens when
// an orchestrator starts everything at once) is waited for, with backoff, up to a
// deadline; what waiting cannot fix (a role or database that does not exist, a password
// refused) is said at once. Either way the failure is one line naming the variable and
// the cause (a DatabaseProblem), never a stack.
import type { Database, DatabaseOptions } from './database.js';
import { DatabaseProblem } from './databaseProblem.js';
import { openDatabase } from './openDatabase.js';

export interface ConnectOptions {
  /** How long an unreachable PostgreSQL is waited for (DATABASE_CONNECT_TIMEOUT_MS); 0: one attempt. */
  connectTimeoutMs: number;
  /** The variable the URL came from, named in the message (DATABASE_URL, DATABASE_DIRECT_URL). */
  variable?: string;
  /** Told once when the first attempt fails and waiting begins. */
  onWaiting?: (cause: string) => void;
}

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;

/** The database `options` point at, answering: PostgreSQL waited for, PGlite opened (its directory locked). */
export async function connectDatabase(options: DatabaseOptions, connect: ConnectOptions): Promise<Database> {
  const db = await openDatabase(options);
  if (db.kind !== 'postgres') return db;
  const variable = connect.variable ?? 'DATABASE_URL';
  const target = describeTarget(options.databaseUrl!);
  const started = Date.now();
  let told = false;
  for (let delay = FIRST_DELAY_MS; ; delay = Math.min(delay * 2, MAX_DELAY_MS)) {
    try {
      await db.ping();
      return db;
    } catch (error) {
      const cause = connectionFailure(error);
      const waited = Date.now() - started;
      if (!cause.transient || waited >= connect.connectTimeoutMs) {
        await db.close().catch(() => {});
        const after = cause.transient ? `; gave up after ${seconds(waited)} (DATABASE_CONNECT_TIMEOUT_MS=${connect.connectTimeoutMs})` : '';
        throw new DatabaseProblem(`${variable}: cannot connect to ${target}: ${cause.text}${after}`, { cause: error });
      }
      if (!told) connect.onWaiting?.(cause.text);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, connect.connectTimeoutMs - waited)));
    }
  }
}

/** What went wrong, in an operator's words, and whether waiting may fix it. */
export function connectionFailure(error: unknown): { text: string; transient: boolean } {
  const { code = '', message = String(error) } = error as { code?: string; message?: string };
  const network: Record<string, string> = {
    ECONNREFUSED: 'connection refused (nothing listens there, or PostgreSQL is not up yet)',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'no answer (timed out)',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ENOTFOUND: 'host name not found',
    EAI_AGAIN: 'host name lookup failed',
  };
  if (network[code]) return { text: network[code], transient: true };
  // 57P03: starting up or in recovery; 57P01/57P02: shutting down; 53300: too many connections.
  if (/^(57P0[123]|53300)$/.test(code)) return { text: message, transient: true };
  if (/Connection terminated|timeout exceeded when trying to connect/i.test(message)) return { text: 'no answer (timed out)', transient: true };
  // 28000 (no such role, or not allowed to log in), 28P01 (password refused), 3D000 (no such database), and the rest.
  return { text: message, transient: false };
}

/** user@host:port/database, never the password. */
function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.slice(1)) || '(default database)';
    return `${parsed.username ? `${decodeURIComponent(parsed.username)}@` : ''}${parsed.hostname || 'localhost'}:${parsed.port || '5432'}/${database}`;
  } catch {
    return 'the database';
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
