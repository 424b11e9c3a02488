// One small interface over the two engines the service runs on: PostgreSQL (`pg`) in
// production and embedded PGlite (the same PostgreSQL, compiled to WASM) by default.
// Both speak the same SQL, so every query in db/ runs unchanged on either. Each engine
// implements it (postgres.ts, pglite.ts); openDatabase.ts opens the one configured.

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Row[]>;
}

export interface QueryOptions {
  /**
   * Plan this statement once per connection and reuse the plan (a named prepared
   * statement on PostgreSQL; PGlite ignores it). Only for statements whose best plan does
   * not depend on the parameter values: PostgreSQL may settle on one generic plan.
   */
  prepared?: boolean;
  /**
   * Where reads may go to replicas (db/replicas/readRouting.ts): run this where the data is at least
   * this far in the primary's history (replicas/walPosition.ts); a replica not known to have
   * replayed that far is passed over.
   */
  after?: bigint;
  /** The first row's `read_position` (replicas/walPosition.ts READ_POSITION) says how far the database that answered had got. */
  reportsPosition?: boolean;
  /**
   * Abandons the query when it aborts (a database found down): the query rejects with the
   * signal's reason and its connection is dropped, since a database that hangs would hold
   * it. PostgreSQL only.
   */
  signal?: AbortSignal;
}

/** A transaction's connection: queries, and COPY into a table. */
export interface Transaction extends Queryable {
  /** COPY `text` (PostgreSQL's COPY text format, db/engines/copyText.ts) into `table` (`columns`). */
  copyIn(table: string, columns: readonly string[], text: string | Uint8Array<ArrayBuffer>): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Cheap liveness probe of the database connection. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * A connection of its own, outside the pool, for session state that must last as long
   * as the caller wants (advisory locks): pooled connections are closed when idle. PostgreSQL only.
   */
  session?(): Promise<Session>;
  /** Connection pool usage, where there is a pool (PostgreSQL). */
  poolStats?(): PoolStats;
}

/** A dedicated connection; `lost` settles when it ends, whoever ended it. */
export interface Session extends Queryable {
  readonly lost: Promise<void>;
  close(): Promise<void>;
}

/** A database's state where reads go to replicas, as /readyz and /metrics show it (db/replicas/readRouting.ts). */
export interface DatabaseStatus {
  /** `primary`, or a replica's host:port. */
  name: string;
  role: 'primary' | 'replica';
  up: boolean;
  /** A replica's heartbeat age, in milliseconds (unknown until it answered a check). */
  lagMs?: number;
  /** Reads it answered since start. */
  reads: number;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** Settings of every session on either engine. */
export const SESSION_SETTINGS: Record<string, string> = {
  // Every multi-table query here is written in the order it should run (the page of people,
  // then their employments). Letting the planner search the other orders of a query's
  // joins can cost as much as executing it, and finds no better order than the written one.
  join_collapse_limit: '1',
  // No JIT: it compiles a broad search (the planner's cost passes its threshold) for tens of
  // milliseconds to save less than that on a query that runs once.
  jit: 'off',
  // A prepared statement is planned once, not per call. Left to choose, PostgreSQL kept
  // re-planning the name searches (their generic plan looks dearer to it than it runs),
  // spending much of its time planning. The generic plans are the ones the EXPLAIN tests
  // check, so what runs is what is tested.
  plan_cache_mode: 'force_generic_plan',
};

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, PGlite is used. */
  databaseUrl?: string;
  /**
   * `databaseUrl` leads to a pooler in transaction mode (PgBouncer): no session settings or
   * named prepared statements; the settings go with each transaction (transactionPooling.ts).
   */
  transactionPooling?: boolean;
  /** Where session() connects instead of `databaseUrl`: PostgreSQL itself (or a pool in session mode), for session-level locks. */
  databaseDirectUrl?: string;
  /** PGlite data directory; when absent, PGlite keeps everything in memory. */
  pgliteDataDir?: string;
  /** PGlite in memory: start from this dump of a data directory (PGlite's dumpDataDir) rather than an empty cluster. */
  pgliteLoadDataDir?: Blob;
  /** Upper bound of the PostgreSQL connection pool. */
  poolMax?: number;
  /** PostgreSQL work_mem for each session, e.g. '32MB'. */
  workMem?: string;
  /** PostgreSQL statement timeout in milliseconds (0 disables it). */
  statementTimeoutMs?: number;
  /** How long to wait for a pooled PostgreSQL connection before failing. */
  connectionTimeoutMs?: number;
  /**
   * Settings of every session this database opens, beyond SESSION_SETTINGS, applied when the
   * session starts: for settings that cannot change later (temp_buffers, once a temporary
   * table was touched). On both engines.
   */
  sessionSettings?: Record<string, string>;
  /**
   * PostgreSQL's application_name for this process's connections, so that an operator can
   * tell them apart in pg_stat_activity and the server's log. PGAPPNAME, or an
   * application_name in the URL, wins.
   */
  applicationName?: string;
}
