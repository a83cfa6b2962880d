import { defineConfig } from 'vitest/config';

/** Browser tests: the built app, started as `npm start` starts it, driven by Debian's Chromium. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.spec.ts'],
    exclude: ['**/node_modules/**'],
    environment: 'node',
    globalSetup: ['../backend/src/test-support/global-postgres.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
