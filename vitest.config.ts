import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Many tests start the service or a command as a process (tsx, PGlite); on a busy shared
    // machine that alone took over 30 s in CI. A hang still fails.
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
