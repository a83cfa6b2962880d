import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const backend = 'http://localhost:3000';
const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/**
 * recharts (the dashboard's charts) is built on Redux Toolkit, as the app is. Sharing one copy would move every part of
 * RTK that only the charts use into a chunk a user's first visit downloads; instead the charts get their own copy of
 * the Redux packages (the same files under another module id), inside the dashboard's lazy chunk. React stays one.
 */
function chartsOwnRedux(): Plugin {
  const COPY = '?charts-copy';
  const REDUX = /^(@reduxjs\/toolkit|react-redux|redux|reselect|immer|redux-thunk)(\/|$)/;
  return {
    name: 'charts-own-redux',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !REDUX.test(source)) return null;
      if (!importer.includes('/node_modules/recharts/') && !importer.endsWith(COPY)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && !resolved.external ? { ...resolved, id: `${resolved.id}${COPY}` } : null;
    },
  };
}

export default defineConfig({
  // Pinned so `vitest --config frontend/vite.config.ts` from the repo root resolves paths the same way.
  root: here('.'),
  plugins: [react(), chartsOwnRedux()],
  resolve: {
    // proto is consumed as TypeScript source, so the client never waits on `tsc -b proto`.
    alias: { '@serendip/proto': here('../proto/src/index.ts') },
  },
  server: {
    proxy: {
      // The Host stays the page's own (the backend accepts writes and sockets only from the site a request names as
      // its origin), and xfwd tells the backend whom the dev server forwards for (its dev outbox: this machine only).
      '/api': { target: backend, changeOrigin: false, xfwd: true },
      '/socket.io': { target: backend, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/first-visit-size.mjs reads it to report what a first visit downloads.
    manifest: true,
    // Country flags (flag-icons, video matching) stay files fetched when shown, never data: URIs in a chunk.
    assetsInlineLimit: (file: string) => (file.includes('flag-icons') ? false : undefined),
  },
  test: {
    name: 'frontend',
    environment: 'jsdom',
    include: ['src/**/*.spec.{ts,tsx}'],
    setupFiles: ['src/test-support/setup.ts'],
    unstubGlobals: true,
    restoreMocks: true,
    // jsdom renders of lazy pages share two cores with the browser and backend suites: 5 s is too tight there.
    testTimeout: 30_000,
  },
});
