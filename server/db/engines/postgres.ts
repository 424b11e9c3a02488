// PostgreSQL through a bounded `pg` pool; behind a pooler in transaction mode too
// (transactionPooling.ts).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { type Database, type DatabaseOptions, type Queryable, SESSION_SETTINGS, type Session } from './database.js';
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

export function openPostgres(options: DatabaseOptions): Database {
  // The shared settings, and work_mem: enough to sort and de-duplicate the people of a
  // large company in memory (the server default spills them to disk).
  const settings = { ...SESSION_SETTINGS, ...(options.workMem ? { work_mem: options.workMem } : {}), ...options.sessionSettings };
  const connectionTo = (connectionString: string | undefined, pooled: boolean) => ({
    connectionString,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    // Detect a peer that vanished without closing the connection (partition, dead host).
    keepAlive: true,
    // Settings for the whole session, where a session is ours (behind a transaction
    // pooler they go with each transaction instead).
    ...(pooled
      ? {}
      : {
          statement_timeout: options.statementTimeoutMs || undefined,
          options: Object.entries(settings)
            .map(([name, value]) => `-c ${name}=${value}`)
            .join(' '),
        }),
    types,
  });
  const pooled = options.transactionPooling === true;
  const connection = connectionTo(options.databaseUrl, pooled);
  // session(): its own connection, straight to PostgreSQL where a direct URL is given.
  const sessionPooled = pooled && !options.databaseDirectUrl;
  const sessionConnection = options.databaseDirectUrl ? connectionTo(options.databaseDirectUrl, false) : connection;
  const perTransaction = pooled
    ? settingsStatement({ ...settings, ...(options.statementTimeoutMs ? { statement_timeout: `${options.statementTimeoutMs}ms` } : {}) })
    : undefined;
  const pool = new pg.Pool(connection);
  // An idle client losing its connection (database restart) must not crash the process;
  // the pool drops it and the next query opens a fresh one.
  pool.on('error', () => {});

  const run: Queryable['query'] = async (sql, params, queryOptions) => {
    const query = perTransaction
      ? new WithSettings({ text: sql, values: params as unknown[] }, perTransaction)
      : { text: sql, values: params as unknown[], name: queryOptions?.prepared ? statementName(sql) : undefined };
    if (queryOptions?.signal) return (await abortable(pool, query, queryOptions.signal)).rows as any;
    return statementResult(await pool.query(query as pg.QueryConfig)).rows as any;
  };

  return {
    kind: 'postgres',
    query: run,
    async transaction(work) {
      const client = await pool.connect();
      // A connection dying mid-transaction makes pg emit 'error' on the checked-out client;
      // unheard, that would crash the process. The failed query rejects all the same.
      let broken: Error | undefined;
      const ignore = (error: Error) => {
        broken = error;
      };
      client.on('error', ignore);
      try {
        await client.query(perTransaction ? `BEGIN; ${perTransaction}` : 'BEGIN');
        const result = await work({
          query: async (sql, params) => (await client.query(sql, params as unknown[])).rows as any,
          copyIn: async (table, columns, text) => {
            await pipeline(Readable.from([text]), client.query(copyStreams.from(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
          },
        });
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
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
    async session(): Promise<Session> {
      const client = new pg.Client(sessionConnection);
      // Heard, so a dropped connection cannot crash the process; `lost` tells the owner.
      const lost = new Promise<void>((resolve) => {
        client.on('error', () => resolve());
        client.on('end', () => resolve());
      });
      await client.connect();
      return {
        lost,
        query: async (sql, params) =>
          (sessionPooled
            ? statementResult(await send(client, new WithSettings({ text: sql, values: params as unknown[] }, perTransaction!)))
            : await client.query(sql, params as unknown[])
          ).rows as any,
        close: () => client.end(),
      };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: options.poolMax ?? 10 }),
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
