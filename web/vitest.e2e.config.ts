import { defineConfig } from 'vitest/config';

/**
 * End-to-end suite: builds the web app, starts the real backend on a free
 * port with a fresh data folder (see e2e/global-setup.ts) and drives Debian's
 * Chromium through playwright-core. Files run one after the other.
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    reporters: ['default'],
  },
});
