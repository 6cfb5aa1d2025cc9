import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Installs Chromium (Debian package) for the platform matrix when missing, outside the tests' time.
    globalSetup: ['test/platforms/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores in CI: keep workers few so interop tests that spawn servers are not starved.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
