import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../server/db/engines/database.js';
import { openPostgres } from '../../server/db/engines/postgres.js';
import type { PgBouncer, ReplicatedCluster } from '../../support/replicatedCluster.js';
import { ids, tokens } from '../fixtures/small.js';
import { type ReplicaSetup, replicatedSmallDataset } from '../helpers/replicaSetup.js';
import { describeReplication } from '../helpers/replicaSuite.js';

const SETTINGS = `SELECT current_setting('join_collapse_limit') AS join_collapse_limit, current_setting('jit') AS jit,
                          current_setting('plan_cache_mode') AS plan_cache_mode, current_setting('work_mem') AS work_mem,
                          current_setting('statement_timeout') AS statement_timeout, $1::int AS n`;
const EXPECTED = { join_collapse_limit: '1', jit: 'off', plan_cache_mode: 'force_generic_plan', work_mem: '48MB', statement_timeout: '1500ms' };

describeReplication(
  'through PgBouncer in transaction pooling mode',
  () => {
    let setup: ReplicaSetup;
    let cluster: ReplicatedCluster;
    let primary: Database;
    let toPrimary: PgBouncer;
    let toStandby: PgBouncer;

    beforeAll(async () => {
      setup = await replicatedSmallDataset();
      ({ cluster, primary } = setup);
      [toPrimary, toStandby] = [await cluster.startPgBouncer(cluster.primary), await cluster.startPgBouncer(cluster.standby)];
    });
    afterAll(() => setup?.close());

    it('is refused without PG_TRANSACTION_POOLING: the session settings are startup options PgBouncer does not pass', async () => {
      const db = openPostgres({ databaseUrl: toPrimary.url, workMem: '48MB' });
      try {
        await expect(db.query('SELECT 1')).rejects.toThrow(/unsupported startup parameter/);
      } finally {
        await db.close();
      }
    });

    it('would lose the settings and the prepared statements where an operator told PgBouncer to ignore the options', async () => {
      const lenient = await cluster.startPgBouncer(cluster.primary, { ignoreStartupParameters: 'options,statement_timeout' });
      const db = openPostgres({ databaseUrl: lenient.url, workMem: '48MB', statementTimeoutMs: 1500, poolMax: 8 });
      try {
        const [row] = await db.query<Record<string, string>>(SETTINGS, [1]);
        expect(row!.join_collapse_limit).toBe('8');
        // Named statements prepared on one server connection are missing on the other.
        const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => db.query(`SELECT $1::int + ${i % 4} AS n`, [i], { prepared: true })));
        expect(outcomes.some((o) => o.status === 'rejected' && /prepared statement .* (does not exist|already exists)/.test(String(o.reason)))).toBe(true);
      } finally {
        await db.close();
        await lenient.stop();
      }
    });

    it('holds every statement and transaction to the settings, and leaves none on the shared server connections', async () => {
      const db = openPostgres({ databaseUrl: toPrimary.url, transactionPooling: true, workMem: '48MB', statementTimeoutMs: 1500, poolMax: 8 });
      try {
        // Many clients over two server connections; statements "prepared" are unnamed here.
        const rows = await Promise.all(Array.from({ length: 60 }, (_, i) => db.query<Record<string, string>>(SETTINGS, [i], { prepared: i % 2 === 0 })));
        for (const [i, [row]] of rows.entries()) expect(row).toEqual({ ...EXPECTED, n: i });
        const inTransaction = await db.transaction(async (tx) => {
          const [first] = await tx.query<Record<string, string>>(SETTINGS, [1]);
          const [second] = await tx.query<Record<string, string>>('SELECT current_setting($1) AS jit', ['jit']);
          return { ...first, second: second!.jit };
        });
        expect(inTransaction).toEqual({ ...EXPECTED, n: 1, second: 'off' });
        // A statement without parameters is held to them too.
        expect((await db.query<{ v: string }>("SELECT current_setting('join_collapse_limit') AS v"))[0]!.v).toBe('1');
        // The server connections keep the server's defaults: a bare client of PgBouncer sees them.
        const bare = new pg.Client({ connectionString: toPrimary.url });
        await bare.connect();
        try {
          for (let i = 0; i < 4; i++) expect((await bare.query("SELECT current_setting('join_collapse_limit') AS v")).rows[0].v).toBe('8');
        } finally {
          await bare.end();
        }
        // statement_timeout is PG_STATEMENT_TIMEOUT_MS, per statement.
        const started = performance.now();
        await expect(db.query('SELECT pg_sleep(5)')).rejects.toMatchObject({ code: '57014' });
        expect(performance.now() - started).toBeLessThan(4_000);
      } finally {
        await db.close();
      }
    });

    it('serves the person operations through PgBouncer in front of the primary and the standby, with the audit', async () => {
      const server = await setup.start({
        DATABASE_URL: toPrimary.url,
        DATABASE_DIRECT_URL: cluster.primary.url,
        DATABASE_REPLICA_URLS: toStandby.url,
        PG_TRANSACTION_POOLING: 'true',
        PG_POOL_MAX: '8',
      });
      try {
        const search = (body: object) => server.call('POST', '/v1/persons/search', { token: tokens.both, body });
        // Every shape at once, over and over: the server connections are shared all the time.
        const shapes = [
          { body: { lastName: 'dur' }, ids: [ids.ana, ids.emile] },
          { body: { firstName: 'émi' }, ids: [ids.emile] },
          { body: { phone: '(415) 555-0132' }, ids: [ids.emile] },
          { body: { personId: ids.ana }, ids: [ids.ana] },
          { body: { companyId: 'globex' }, ids: [ids.emile] },
          { body: {}, ids: [ids.ana, ids.emile] },
          { body: { lastName: 'du', firstName: 'a' }, ids: [ids.ana] },
        ];
        const answers = await Promise.all(Array.from({ length: 70 }, (_, i) => search(shapes[i % shapes.length]!.body)));
        for (const [i, res] of answers.entries()) {
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.persons.map((p: any) => p.id)).toEqual(shapes[i % shapes.length]!.ids);
        }
        const got = await server.call('GET', `/v1/persons/${ids.emile}`, { token: tokens.both });
        expect(got.status).toBe(200);
        expect((await server.call('GET', '/v1/companies/acme-corp/hello', { token: tokens.both })).status).toBe(200);
        expect((await server.call('GET', '/readyz')).status).toBe(200);
        // The reads went through the standby's PgBouncer; the audit reached the primary.
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        expect(Number(new RegExp(`db_reads_total\\{database="127.0.0.1:${toStandby.port}",role="replica"\\} (\\d+)`).exec(metrics)?.[1])).toBeGreaterThan(70);
        await server.app.auditShipper!.drain();
        const [{ n }] = (await primary.query<{ n: number }>('SELECT count(*)::int AS n FROM access_audit')) as [{ n: number }];
        expect(n).toBe(71);
      } finally {
        await server.close();
      }
    });
  },
  { pgbouncer: true },
);
