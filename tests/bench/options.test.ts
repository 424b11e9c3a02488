// Where `--imports` measures: on a server of its own unless a database is named.
import { expect, it } from 'vitest';
import { parseBenchArgs } from '../../bench/options.js';

it('measures the imports on a server of its own unless --database-url or BENCH_DATABASE_URL names one', () => {
  expect(parseBenchArgs(['--imports'], {}).postgres).toMatchObject({ given: false, databaseUrl: 'postgres://postgres@127.0.0.1:5432/lookup_bench' });
  expect(parseBenchArgs(['--imports', '--database-url', 'postgres://db.example/x'], {}).postgres).toMatchObject({
    given: true,
    databaseUrl: 'postgres://db.example/x',
  });
  expect(parseBenchArgs(['--imports'], { BENCH_DATABASE_URL: 'postgres://db.example/y' }).postgres).toMatchObject({
    given: true,
    databaseUrl: 'postgres://db.example/y',
  });
});
