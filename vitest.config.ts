import { defineConfig } from 'vitest/config';

/** One run, every workspace: `npx vitest run` (or `--project backend`). Each project has its own config. */
export default defineConfig({
  test: {
    projects: ['{proto,backend,sfu,bench,e2e,scripts}/vitest.config.ts', 'frontend/vite.config.{ts,mts}'],
  },
});
