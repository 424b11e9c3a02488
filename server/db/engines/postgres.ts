// PostgreSQL through a bounded `pg` pool; behind a pooler in transaction mode too
// (transactionPooling.ts).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { type Database, type DatabaseOptions, type Queryable, SESSION_SETTINGS, type Session, type Transaction } from './database.js';
import { settingsStatement, statementResult, WithSettings } from './transactionPooling.js';

// A `date` stays the 'YYYY-MM-DD' string PostgreSQL sends: pg would otherwise build a
// JS Date at local midnight, which shifts the day in any time zone west of UTC.
const DATE_OID = 1082;
const types = {
  getTypeParser(oid: number, format?: any) {
    if (oid === DATE_OID) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * How statements reach PostgreSQL: on connections of our own, with the settings for the
 * whole session and named prepared statements; or behind a pooler in transaction mode,
 * with the settings sent with each transaction and statements unnamed
 * (transactionPooling.ts).
 */
interface StatementMode {
  /** What a connection is opened with for this mode. */
  connectionOptions(): pg.ClientConfig;
  /** The statement as pg sends it. */
  statement(sql: string, params: unknown[] | undefined, prepared: boolean): pg.QueryConfig | WithSettings;
  /** What opens a transaction. */
  readonly begin: string;
}

type Settings = Record<string, string | number>;

/** Connections of our own: the settings for the whole session, each statement shape prepared once per connection. */
class SessionSettings implements StatementMode {
  readonly begin = 'BEGIN';
  constructor(
    private readonly settings: Settings,
    private readonly statementTimeoutMs: number | undefined,
  ) {}
  connectionOptions(): pg.ClientConfig {
    return {
      statement_timeout: this.statementTimeoutMs || undefined,
      options: Object.entries(this.settings)
        .map(([name, value]) => `-c ${name}=${value}`)
        .join(' '),
    };
  }
  statement(sql: string, params: unknown[] | undefined, prepared: boolean): pg.QueryConfig {
    return { text: sql, values: params, name: prepared ? statementName(sql) : undefined };
  }
}

/** Behind a transaction pooler: nothing may outlive a transaction, so the settings go with each one. */
class TransactionSettings implements StatementMode {
  private readonly settings: string;
  readonly begin: string;
  constructor(settings: Settings, statementTimeoutMs: number | undefined) {
    this.settings = settingsStatement({ ...settings, ...(statementTimeoutMs ? { statement_timeout: `${statementTimeoutMs}ms` } : {}) });
    this.begin = `BEGIN; ${this.settings}`;
  }
  connectionOptions(): pg.ClientConfig {
    return {};
  }
  statement(sql: string, params: unknown[] | undefined): WithSettings {
    return new WithSettings({ text: sql, values: params }, this.settings);
  }
}

/** A connection's options: the URL, the pool's bounds, and what the mode adds. */
function connectionTo(connectionString: string | undefined, mode: StatementMode, options: DatabaseOptions): pg.PoolConfig {
  return {
    connectionString,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    // Detect a peer that vanished without closing the connection (partition, dead host).
    keepAlive: true,
    // (pg reads PGAPPNAME itself where this is left unset; the URL's parameters override both.)
    application_name: process.env.PGAPPNAME ? undefined : options.applicationName,
    ...mode.connectionOptions(),
    types,
  };
}

export function openPostgres(options: DatabaseOptions): Database {
  // The shared settings, and work_mem: enough to sort and de-duplicate the people of a
  // large company in memory (the server default spills them to disk).
  const settings = { ...SESSION_SETTINGS, ...(options.workMem ? { work_mem: options.workMem } : {}), ...options.sessionSettings };
  const own = new SessionSettings(settings, options.statementTimeoutMs);
  const mode = options.transactionPooling === true ? new TransactionSettings(settings, options.statementTimeoutMs) : own;
  // session(): its own connection, straight to PostgreSQL where a direct URL is given.
  const session = options.databaseDirectUrl
    ? { connection: connectionTo(options.databaseDirectUrl, own, options), mode: own }
    : { connection: connectionTo(options.databaseUrl, mode, options), mode };
  return new PostgresDatabase(new pg.Pool(connectionTo(options.databaseUrl, mode, options)), mode, session, options.poolMax ?? 10);
}

/** PostgreSQL through a bounded pool, one method per operation. */
class PostgresDatabase implements Database {
  readonly kind = 'postgres';
  constructor(
    private readonly pool: pg.Pool,
    private readonly mode: StatementMode,
    private readonly sessions: { connection: pg.ClientConfig; mode: StatementMode },
    private readonly poolMax: number,
  ) {
    // An idle client losing its connection (database restart) must not crash the process;
    // the pool drops it and the next query opens a fresh one.
    pool.on('error', () => {});
  }

  query: Queryable['query'] = async (sql, params, queryOptions) => {
    const query = this.mode.statement(sql, params as unknown[], queryOptions?.prepared === true);
    if (queryOptions?.signal) return (await abortable(this.pool, query, queryOptions.signal)).rows as any;
    return statementResult(await this.pool.query(query as pg.QueryConfig)).rows as any;
  };

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A connection dying mid-transaction makes pg emit 'error' on the checked-out client;
    // unheard, that would crash the process. The failed query rejects all the same.
    let broken: Error | undefined;
    const ignore = (error: Error) => {
      broken = error;
    };
    client.on('error', ignore);
    try {
      await client.query(this.mode.begin);
      const result = await work(transactionOn(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.off('error', ignore);
      // A broken connection is dropped, not returned to the pool.
      client.release(broken);
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async session(): Promise<Session> {
    const client = new pg.Client(this.sessions.connection);
    // Heard, so a dropped connection cannot crash the process; `lost` tells the owner.
    const lost = new Promise<void>((resolve) => {
      client.on('error', () => resolve());
      client.on('end', () => resolve());
    });
    await client.connect();
    const { mode } = this.sessions;
    return {
      lost,
      query: async (sql, params) => statementResult(await send(client, mode.statement(sql, params as unknown[], false))).rows as any,
      close: () => client.end(),
    };
  }

  poolStats() {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.poolMax };
  }
}

/** A transaction's statements on its client (the mode's settings came with BEGIN). */
function transactionOn(client: pg.PoolClient): Transaction {
  return {
    query: async (sql, params) => (await client.query(sql, params as unknown[])).rows as any,
    copyIn: async (table, columns, text) => {
      await pipeline(Readable.from([text]), client.query(copyStreams.from(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
    },
  };
}

/**
 * pool.query, but abandoned when `signal` aborts: waiting for a connection or for the
 * answer. The connection of a query that failed, or was abandoned, is dropped (as
 * pool.query drops it): it may be dead, or busy with the abandoned statement.
 */
async function abortable(pool: pg.Pool, query: pg.QueryConfig | WithSettings, signal: AbortSignal): Promise<pg.QueryResult> {
  signal.throwIfAborted();
  let abort!: (reason: unknown) => void;
  const aborted = new Promise<never>((_, reject) => {
    abort = reject;
  });
  aborted.catch(() => {});
  const onAbort = () => abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const connecting = pool.connect();
  let client: pg.PoolClient;
  try {
    client = await Promise.race([connecting, aborted]);
  } catch (error) {
    signal.removeEventListener('abort', onAbort);
    // Still connecting when abandoned: the connection goes once it is made.
    connecting.then(
      (late) => late.release(true),
      () => {},
    );
    throw error;
  }
  // A connection dying while checked out emits 'error' on its client; unheard, that would crash the process.
  const ignore = () => {};
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    const answering = send(client, query);
    answering.catch(() => {});
    return statementResult(await Promise.race([answering, aborted]));
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    // A dropped client keeps the listener: it may still report its end.
    if (!failure) client.off('error', ignore);
    client.release(failure);
  }
}

/** A query on a client, as a promise (pg answers a WithSettings through its callback). */
function send(client: pg.ClientBase, query: pg.QueryConfig | WithSettings): Promise<pg.QueryResult | pg.QueryResult[]> {
  if (!(query instanceof WithSettings)) return client.query(query);
  return new Promise((resolve, reject) => {
    query.callback = (error, result) => (error ? reject(error) : resolve(result));
    client.query(query as unknown as pg.QueryConfig);
  });
}

/** The same text always gets the same name, which pg prepares once per connection. */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) statementNames.set(sql, (name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`));
  return name;
}
