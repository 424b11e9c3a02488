import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Two projects, one rule: a test file whose name ends in `.slow.test.ts` is slow and runs in
// `npm run test:all` only (with CI); every other one runs in `npm test` too. Slow is what a
// contributor need not wait for on each change: the bench at a tiny scale, instruction
// counts under callgrind, the code generators' matrix, the browsers, the client packed and
// installed, crashes and long runs of processes. docs/contributing/testing.md says more.
const slow = 'tests/**/*.slow.test.ts';

export default defineConfig({
  test: {
    // Before any file runs: PostgreSQL and Redis checked (skipped, or failed in CI), and the
    // migrated PGlite cluster and PostgreSQL database that throwaway databases start from made.
    globalSetup: ['tests/helpers/services.ts', 'tests/helpers/pgliteTemplate.ts', 'tests/helpers/postgresTemplate.ts'],
    // Many tests start the service or a command as a process (tsx, PGlite); on a busy shared
    // machine that alone took over 30 s in CI. A hang still fails.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // The same for a condition polled for: vitest gives up after one second, which a loaded
    // CI host has overrun. A condition that never holds still fails.
    expect: { poll: { timeout: 15_000 } },
    // vitest's default is one file at a time per core but one; on two cores that is one file
    // at a time. Much of a file's time is spent waiting on the processes and databases it
    // talks to, so two files at once keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'fast', include: ['tests/**/*.test.ts'], exclude: [...configDefaults.exclude, slow] } },
      { extends: true, test: { name: 'slow', include: [slow] } },
    ],
  },
});
