// Where a read goes when DATABASE_REPLICA_URLS lists hot standbys of DATABASE_URL: the
// person query and the credential lookup (the reads app.ts hands this to) run on a
// replica; everything that writes keeps the primary's Database. Unset, app.ts hands out
// the primary itself and none of this runs.
//
// A read goes to the usable replica with the fewest reads under way: one that answered its
// last check and whose heartbeat is at most REPLICA_MAX_LAG_MS old (replicaHealth.ts).
// With none usable, the primary serves. With the primary down too, the freshest replica
// serves whatever its lag: its answer says how old it is (decision 0016).
import type { Database, DatabaseOptions, Queryable, QueryOptions } from './database.js';
import { Heartbeat, replicaStatement } from './heartbeat.js';
import { openPostgres } from './postgres.js';
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

export interface ReadRouterOptions {
  /** REPLICA_MAX_LAG_MS. */
  maxLagMs: number;
  /** A database went down or came back (logged by the caller). */
  onChange?: (database: string, up: boolean, error?: unknown) => void;
}

export class ReadRouter implements Queryable {
  private readonly heartbeat: Heartbeat;
  private readonly replicas: ReplicaHealth[];
  private readonly inFlight = new Map<ReplicaHealth, number>();
  private timer: NodeJS.Timeout | undefined;
  private next = 0;

  private constructor(
    private readonly primary: Database,
    replicas: readonly { name: string; db: Database }[],
    private readonly options: ReadRouterOptions,
  ) {
    const onChange = options.onChange ?? (() => {});
    // The replicas' asOf is the heartbeat they hold: this instance keeps it beating.
    this.heartbeat = new Heartbeat(primary, (up, error) => onChange('primary', up, error));
    this.replicas = replicas.map((r) => new ReplicaHealth(r.name, r.db, (up, error) => onChange(r.name, up, error)));
  }

  /** Opens a pool per replica (the primary's settings), checks each once, and starts the heartbeat and the checks. */
  static async open(primary: Database, replicas: readonly ReplicaUrl[], databaseOptions: DatabaseOptions, options: ReadRouterOptions): Promise<ReadRouter> {
    const router = new ReadRouter(
      primary,
      replicas.map((r) => ({ name: r.name, db: openPostgres({ ...databaseOptions, databaseUrl: r.url }) })),
      options,
    );
    router.heartbeat.start();
    // Known from the first request on; a replica down at start is simply not used yet.
    await router.checkAll();
    router.timer = setInterval(() => void router.checkAll(), CHECK_INTERVAL_MS).unref();
    return router;
  }

  /** Whether the primary took this instance's last heartbeat (credential confirmations ask it only then). */
  get primaryUp(): boolean {
    return this.heartbeat.up;
  }

  async query<Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Row[]> {
    const replica = this.choose(options?.after);
    if (!replica) return this.primary.query<Row>(sql, params, options);
    this.inFlight.set(replica, (this.inFlight.get(replica) ?? 0) + 1);
    try {
      const rows = await replica.db.query<Row>(replicaStatement(sql), params, options);
      if (options?.reportsPosition) replica.learn((rows[0] as { read_position?: string } | undefined)?.read_position);
      return rows;
    } finally {
      this.inFlight.set(replica, this.inFlight.get(replica)! - 1);
    }
  }

  /** Stops the heartbeat and the checks and closes the replicas' pools (the primary is its owner's to close). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.heartbeat.close();
    await Promise.all(this.replicas.map((r) => r.close()));
    await Promise.all(this.replicas.map((r) => r.db.close()));
  }

  private checkAll(): Promise<unknown> {
    return Promise.all(this.replicas.map((r) => r.check()));
  }

  /** The replica to read from, or undefined for the primary; `after`: see QueryOptions. */
  private choose(after: bigint | undefined): ReplicaHealth | undefined {
    const now = performance.now();
    const n = this.replicas.length;
    const start = this.next++ % n;
    let best: ReplicaHealth | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    // The usable replica with the fewest reads under way; ties go round the list.
    for (let i = 0; i < n; i++) {
      const replica = this.replicas[(start + i) % n]!;
      if (!replica.up || replica.ageMs(now) > this.options.maxLagMs || (after !== undefined && replica.position < after)) continue;
      const busy = this.inFlight.get(replica) ?? 0;
      if (busy < fewest) [best, fewest] = [replica, busy];
    }
    if (best || this.heartbeat.up) return best;
    // The primary is down: the freshest replica that answers, however far behind.
    for (const replica of this.replicas) if (replica.up && (!best || (replica.heartbeatAt ?? 0) > (best.heartbeatAt ?? 0))) best = replica;
    return best;
  }
}
