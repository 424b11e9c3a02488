// Where a read goes when DATABASE_REPLICA_URLS lists hot standbys of DATABASE_URL: the
// person query and the credential lookup (the reads app.ts hands this to) run on a
// replica; everything that writes keeps the primary's Database. Unset, app.ts hands out
// the primary itself and none of this runs.
import type { Database, DatabaseOptions, Queryable } from './database.js';
import { Heartbeat, replicaStatement } from './heartbeat.js';
import { openPostgres } from './postgres.js';

/** A replica: its name in logs, metrics and /readyz (host:port, never a password), and its pool. */
export interface Replica {
  readonly name: string;
  readonly db: Database;
}

/** Opens a pool per replica URL, with the primary's settings (pool size, timeouts, session settings). */
export function openReplicas(urls: readonly string[], options: DatabaseOptions): Replica[] {
  const names = new Set<string>();
  return urls.map((url) => {
    const parsed = new URL(url);
    let name = `${parsed.hostname}:${parsed.port || 5432}`;
    // Two replicas behind one address (databases of one server): numbered, still unique.
    for (let n = 2; names.has(name); n++) name = `${parsed.hostname}:${parsed.port || 5432}#${n}`;
    names.add(name);
    return { name, db: openPostgres({ ...options, databaseUrl: url }) };
  });
}

export class ReadRouter implements Queryable {
  private next = 0;
  private readonly heartbeat: Heartbeat;

  constructor(
    primary: Database,
    private readonly replicas: readonly Replica[],
  ) {
    // The replicas' asOf is the heartbeat they hold: this instance keeps it beating.
    this.heartbeat = new Heartbeat(primary);
    this.heartbeat.start();
  }

  query<Row>(sql: string, params?: unknown[], options?: Parameters<Queryable['query']>[2]): Promise<Row[]> {
    const replica = this.replicas[this.next++ % this.replicas.length]!;
    return replica.db.query<Row>(replicaStatement(sql), params, options);
  }

  /** Stops the heartbeat and closes the replicas' pools (the primary is its owner's to close). */
  async close(): Promise<void> {
    await this.heartbeat.close();
    await Promise.all(this.replicas.map((r) => r.db.close()));
  }
}
