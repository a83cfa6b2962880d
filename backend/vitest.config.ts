import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Nest needs decorator metadata, which only SWC (not Vite's own transform) emits.
  plugins: [
    swc.vite({
      module: { type: 'es6' },
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
      },
    }),
  ],
  resolve: {
    alias: { '@serendip/proto': fileURLToPath(new URL('../proto/src/index.ts', import.meta.url)) },
  },
  test: {
    name: 'backend',
    root: import.meta.dirname,
    include: ['src/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['src/test-support/global-postgres.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
