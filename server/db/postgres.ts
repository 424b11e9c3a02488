// PostgreSQL through a bounded `pg` pool.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { type Database, type DatabaseOptions, type Queryable, SESSION_SETTINGS, type Session } from './database.js';

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
  const connection = {
    connectionString: options.databaseUrl,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    // Detect a peer that vanished without closing the connection (partition, dead host).
    keepAlive: true,
    statement_timeout: options.statementTimeoutMs || undefined,
    // The shared settings, and work_mem: enough to sort and de-duplicate the people of a
    // large company in memory (the server default spills them to disk).
    options: Object.entries({ ...SESSION_SETTINGS, ...(options.workMem ? { work_mem: options.workMem } : {}), ...options.sessionSettings })
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' '),
    types,
  };
  const pool = new pg.Pool(connection);
  // An idle client losing its connection (database restart) must not crash the process;
  // the pool drops it and the next query opens a fresh one.
  pool.on('error', () => {});

  const run: Queryable['query'] = async (sql, params, queryOptions) => {
    const query = { text: sql, values: params as unknown[], name: queryOptions?.prepared ? statementName(sql) : undefined };
    if (queryOptions?.signal) return (await abortable(pool, query, queryOptions.signal)).rows as any;
    return (await pool.query(query)).rows as any;
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
        await client.query('BEGIN');
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
      const client = new pg.Client(connection);
      // Heard, so a dropped connection cannot crash the process; `lost` tells the owner.
      const lost = new Promise<void>((resolve) => {
        client.on('error', () => resolve());
        client.on('end', () => resolve());
      });
      await client.connect();
      return {
        lost,
        query: async (sql, params) => (await client.query(sql, params as unknown[])).rows as any,
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
async function abortable(pool: pg.Pool, query: pg.QueryConfig, signal: AbortSignal): Promise<pg.QueryResult> {
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
    const answering = client.query(query);
    answering.catch(() => {});
    return await Promise.race([answering, aborted]);
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

/** The same text always gets the same name, which pg prepares once per connection. */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) statementNames.set(sql, (name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`));
  return name;
}
