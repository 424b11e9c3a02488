// `--imports` on a server of its own (bench/imports/benchServer.ts): made once with the
// stated settings, its data kept from one run to the next, and a server a stopped run left
// running taken over rather than refused.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type BenchServer, sharedBuffersMb, startBenchServer } from '../../bench/imports/benchServer.js';
import { inCi, whereReplicationRuns } from '../../support/replicatedCluster.js';

const GB = 2 ** 30;

it('gives shared_buffers a quarter of the memory, at most 8 GB', () => {
  expect(sharedBuffersMb(24 * GB)).toBe(6144);
  expect(sharedBuffersMb(2 * GB)).toBe(512);
  expect(sharedBuffersMb(256 * GB)).toBe(8192);
});

const where = whereReplicationRuns();
describe.runIf(where.ok || inCi)(`the import bench's own server${where.ok ? '' : ` (skipped: needs ${where.missing})`}`, () => {
  const root = mkdtempSync(join(tmpdir(), 'bench-server-'));
  chmodSync(root, 0o755); // (the server runs as the postgres user, which must reach its directory)
  const started: BenchServer[] = [];
  afterAll(async () => {
    for (const server of started) await server.stop().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  });
  const query = async (url: string, text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  const start = async () => {
    const lines: string[] = [];
    const server = await startBenchServer('lookup_bench', (line) => lines.push(line), root);
    started.push(server);
    return { server, lines, admin: server.databaseUrl.replace(/\/lookup_bench$/, '/postgres') };
  };

  it('runs with the stated settings, and keeps its data across a stop', async () => {
    const first = await start();
    expect(first.lines.join('\n')).toMatch(/making the bench's own PostgreSQL server/);
    expect(first.server.databaseUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/lookup_bench$/);
    const settings = await query(
      first.admin,
      "SELECT name, setting, unit FROM pg_settings WHERE name IN ('fsync', 'full_page_writes', 'shared_buffers', 'max_wal_size') ORDER BY name",
    );
    expect(settings).toEqual([
      { name: 'fsync', setting: 'on', unit: null },
      { name: 'full_page_writes', setting: 'on', unit: null },
      { name: 'max_wal_size', setting: '4096', unit: 'MB' },
      { name: 'shared_buffers', setting: String((sharedBuffersMb() * 1024) / 8), unit: '8kB' },
    ]);
    await query(first.admin, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
    await first.server.stop();

    const second = await start();
    expect(second.lines).toEqual([]);
    expect(await query(second.admin, 'SELECT n FROM kept')).toEqual([{ n: 42 }]);
    // A run that stopped without stopping its server: the next one takes over the data.
    const third = await start();
    expect(await query(third.admin, 'SELECT n FROM kept')).toEqual([{ n: 42 }]);
    await expect(query(second.admin, 'SELECT 1')).rejects.toThrow();
  });
});
