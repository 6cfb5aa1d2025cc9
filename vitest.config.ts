import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores in CI: keep workers few so interop tests that spawn servers are not starved.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
