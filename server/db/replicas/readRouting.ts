// Where a read goes when DATABASE_REPLICA_URLS lists hot standbys of DATABASE_URL: the
// person query and the credential lookup (the reads app.ts hands this to) run on a
// replica; everything that writes keeps the primary's Database. Unset, app.ts hands out
// the primary itself and none of this runs.
//
// A read goes to the usable replica with the fewest reads under way: one that answered its
// last check, whose heartbeat is at most REPLICA_MAX_LAG_MS old (replicaHealth.ts), and
// that has replayed as far as the read needs (QueryOptions.after). With none usable, the
// primary serves. With the primary down too, the freshest replica serves whatever its
// lag: its answer says how old it is (decision 0016). A read whose database fails it by
// being down runs again on another: reads are idempotent.
import type { Database, DatabaseOptions, DatabaseStatus, Queryable, QueryOptions } from '../engines/database.js';
import { openPostgres } from '../engines/postgres.js';
import type { DatabaseState } from './databaseState.js';
import { Heartbeat, replicaStatement } from './heartbeat.js';
import { CHECK_INTERVAL_MS, ReplicaHealth } from './replicaHealth.js';

/** A replica to open: its name in logs, metrics and /readyz (host:port, never a password), and its URL. */
export interface ReplicaUrl {
  readonly name: string;
  readonly url: string;
}

/** Names each URL by host and port; two behind one address are numbered. */
export function nameReplicas(urls: readonly string[]): ReplicaUrl[] {
  const names = new Set<string>();
  return urls.map((url) => {
    const parsed = new URL(url);
    const address = `${parsed.hostname}:${parsed.port || 5432}`;
    let name = address;
    for (let n = 2; names.has(name); n++) name = `${address}#${n}`;
    names.add(name);
    return { name, url };
  });
}

/** At start, how long the replicas may take to show the first heartbeat, and how often they are asked meanwhile. */
const STARTUP_WAIT_MS = 1_000;
const STARTUP_CHECK_MS = 50;

export interface ReadRouterOptions {
  /** REPLICA_MAX_LAG_MS. */
  maxLagMs: number;
  /** REPLICA_CHECK_TIMEOUT_MS. */
  checkTimeoutMs: number;
  /** A database went down or came back (logged by the caller). */
  onChange?: (database: string, up: boolean, error?: unknown) => void;
}

export class ReadRouter implements Queryable {
  private readonly heartbeat: Heartbeat;
  private readonly replicas: ReplicaHealth[];
  private readonly inFlight = new Map<ReplicaHealth, number>();
  /** Reads each database answered, since start. */
  private readonly reads = new Map<DatabaseState, number>();
  private timer: NodeJS.Timeout | undefined;
  private next = 0;

  private constructor(
    primary: Database,
    replicas: readonly { name: string; db: Database }[],
    private readonly options: ReadRouterOptions,
  ) {
    const onChange = options.onChange ?? (() => {});
    // The replicas' asOf is the heartbeat they hold: this instance keeps it beating.
    this.heartbeat = new Heartbeat(primary, (up, error) => onChange('primary', up, error));
    this.replicas = replicas.map((r) => new ReplicaHealth(r.name, r.db, options.checkTimeoutMs, (up, error) => onChange(r.name, up, error)));
  }

  /** Opens a pool per replica (the primary's settings), checks each once, and starts the heartbeat and the checks. */
  static async open(primary: Database, replicas: readonly ReplicaUrl[], databaseOptions: DatabaseOptions, options: ReadRouterOptions): Promise<ReadRouter> {
    const router = new ReadRouter(
      primary,
      // (The primary's direct URL is the primary's: a replica's session() connects to the replica.)
      replicas.map((r) => ({ name: r.name, db: openPostgres({ ...databaseOptions, databaseUrl: r.url, databaseDirectUrl: undefined }) })),
      options,
    );
    // Known from the first request on: one heartbeat committed, and the replicas checked
    // until they have replayed it (a second at most; one down or behind is simply not used yet).
    await router.heartbeat.tick().catch(() => {});
    router.heartbeat.start();
    for (let waited = 0; ; waited += STARTUP_CHECK_MS) {
      await router.checkAll();
      if (waited >= STARTUP_WAIT_MS || router.replicas.every((r) => !r.up || r.ageMs() <= options.maxLagMs)) break;
      await new Promise((resolve) => setTimeout(resolve, STARTUP_CHECK_MS));
    }
    router.timer = setInterval(() => void router.checkAll(), CHECK_INTERVAL_MS).unref();
    return router;
  }

  /** Whether the primary took this instance's last heartbeat (credential confirmations ask it only then). */
  get primaryUp(): boolean {
    return this.heartbeat.up;
  }

  /**
   * Runs a read where choose() says. A database that fails it for being down (or, on a
   * standby, a conflict with replay) is passed over and the read runs elsewhere: reads
   * are idempotent. Each database is tried once; the last failure is the answer.
   */
  async query<Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Row[]> {
    let tried: Set<DatabaseState> | undefined;
    // (Nothing tried yet: there is always a database to try.)
    for (let target = this.choose(options?.after, tried)!; ; ) {
      try {
        return await this.run<Row>(target, sql, params, options);
      } catch (error) {
        const failure = readFailure(error);
        if (!failure) throw error;
        if (failure === 'down') target.markDown(error);
        (tried ??= new Set()).add(target);
        const next = this.choose(options?.after, tried);
        if (!next) throw error;
        target = next;
      }
    }
  }

  /** Each database: whether it answers, its heartbeat's age (replicas) and the reads it answered. */
  status(): DatabaseStatus[] {
    const now = performance.now();
    return [
      { name: 'primary', role: 'primary', up: this.heartbeat.up, reads: this.reads.get(this.heartbeat) ?? 0 },
      ...this.replicas.map((r) => ({
        name: r.name,
        role: 'replica' as const,
        up: r.up,
        lagMs: Number.isFinite(r.ageMs(now)) ? Math.round(r.ageMs(now)) : undefined,
        reads: this.reads.get(r) ?? 0,
      })),
    ];
  }

  /** Stops the heartbeat and the checks and closes the replicas' pools (the primary is its owner's to close). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.heartbeat.close();
    await Promise.all(this.replicas.map((r) => r.close()));
    await Promise.all(this.replicas.map((r) => r.db.close()));
  }

  private async run<Row>(target: Heartbeat | ReplicaHealth, sql: string, params: unknown[] | undefined, options: QueryOptions | undefined): Promise<Row[]> {
    if (target instanceof Heartbeat) {
      const rows = await target.db.query<Row>(sql, params, { ...options, signal: target.signal });
      this.reads.set(target, (this.reads.get(target) ?? 0) + 1);
      return rows;
    }
    this.inFlight.set(target, (this.inFlight.get(target) ?? 0) + 1);
    try {
      const rows = await target.db.query<Row>(replicaStatement(sql), params, { ...options, signal: target.signal });
      if (options?.reportsPosition) target.learn((rows[0] as { read_position?: string } | undefined)?.read_position);
      this.reads.set(target, (this.reads.get(target) ?? 0) + 1);
      return rows;
    } finally {
      this.inFlight.set(target, this.inFlight.get(target)! - 1);
    }
  }

  private checkAll(): Promise<unknown> {
    return Promise.all(this.replicas.map((r) => r.check()));
  }

  /**
   * Where a read goes, of the databases not `tried` yet: the usable replica with the fewest
   * reads under way (up, within the lag bound, and at least `after` far); else the primary
   * if it is up; else the freshest replica that answers, however far behind; else the
   * primary all the same (its failure is the answer).
   */
  private choose(after: bigint | undefined, tried: Set<DatabaseState> | undefined): Heartbeat | ReplicaHealth | undefined {
    const now = performance.now();
    const n = this.replicas.length;
    const start = this.next++ % n;
    let best: ReplicaHealth | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    // Ties go round the list.
    for (let i = 0; i < n; i++) {
      const replica = this.replicas[(start + i) % n]!;
      if (!replica.up || tried?.has(replica) || replica.ageMs(now) > this.options.maxLagMs || (after !== undefined && replica.position < after)) continue;
      const busy = this.inFlight.get(replica) ?? 0;
      if (busy < fewest) [best, fewest] = [replica, busy];
    }
    if (best) return best;
    if (this.heartbeat.up && !tried?.has(this.heartbeat)) return this.heartbeat;
    for (const replica of this.replicas)
      if (replica.up && !tried?.has(replica) && (!best || (replica.heartbeatAt ?? 0) > (best.heartbeatAt ?? 0))) best = replica;
    return best ?? (tried?.has(this.heartbeat) ? undefined : this.heartbeat);
  }
}

const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection exceptions (DatabaseDown too)
]);
const CONNECTION_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|connection is closed|Client has encountered a connection error/i;
/** On a standby, "canceling statement due to conflict with recovery": the same read may run elsewhere. */
const REPLAY_CONFLICTS = new Set(['40001', '40P01']);

/** Why a read failed, where that is no fault of the read: its database is `down`, or it may simply run `elsewhere`. */
function readFailure(error: unknown): 'down' | 'elsewhere' | undefined {
  const e = error as { code?: string; message?: string } | undefined;
  if (e?.code && CONNECTION_FAILURES.has(e.code)) return 'down';
  if (e?.code && REPLAY_CONFLICTS.has(e.code)) return 'elsewhere';
  if (CONNECTION_MESSAGES.test(e?.message ?? '')) return 'down';
  return undefined;
}
