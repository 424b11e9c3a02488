// PostgreSQL behind a pooler in transaction mode (PgBouncer, PG_TRANSACTION_POOLING): each
// transaction may run on another server connection, so nothing may outlive one. PgBouncer
// refuses startup options it does not track (the `-c` settings, statement_timeout), and
// before 1.21 it cannot keep named prepared statements. So the settings go with each
// transaction instead, and statements are unnamed: PostgreSQL then plans each call, as
// plan_cache_mode (generic plans, so the same plans the tests check) and the other
// settings say.
import pg from 'pg';

/**
 * One statement that sets `settings` for the transaction it runs in, and for that
 * transaction only (set_config's third argument).
 */
export function settingsStatement(settings: Record<string, string>): string {
  return `SELECT ${Object.entries(settings)
    .map(([name, value]) => `set_config(${pg.escapeLiteral(name)}, ${pg.escapeLiteral(value)}, true)`)
    .join(', ')}`;
}

/**
 * A statement sent after the settings statement, in one round trip: the extended protocol
 * runs every message up to Sync as one implicit transaction, so the settings hold for the
 * statement, are planned with, and end with it. Its result is the statement's (the
 * settings' row is dropped).
 */
export class WithSettings extends (pg.Query as unknown as new (config: pg.QueryConfig) => PgQuery) {
  constructor(
    config: pg.QueryConfig,
    private readonly settings: string,
  ) {
    // Extended even without parameters: the simple protocol would skip prepare().
    super({ ...config, name: undefined, queryMode: 'extended' } as pg.QueryConfig);
  }

  override prepare(connection: PgConnection): void {
    connection.parse({ text: this.settings, name: '' });
    connection.bind({ portal: '', statement: '', values: [], valueMapper: (value: unknown) => value });
    connection.describe({ type: 'P', name: '' });
    connection.execute({ portal: '' });
    super.prepare(connection);
  }
}

/** The statement's own result of a WithSettings query (pg reports one per statement). */
export function statementResult(result: pg.QueryResult | pg.QueryResult[]): pg.QueryResult {
  return Array.isArray(result) ? result[result.length - 1]! : result;
}

// pg's Query and Connection as WithSettings uses them (not in @types/pg).
interface PgQuery {
  callback?: (error: Error | null, result: pg.QueryResult | pg.QueryResult[]) => void;
  prepare(connection: PgConnection): void;
}
interface PgConnection {
  parse(message: { text: string; name: string }): void;
  bind(message: { portal: string; statement: string; values: unknown[]; valueMapper: (value: unknown) => unknown }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
}
