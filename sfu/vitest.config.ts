import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@serendip/proto': fileURLToPath(new URL('../proto/src/index.ts', import.meta.url)) },
  },
  test: {
    name: 'sfu',
    root: import.meta.dirname,
    include: ['src/**/*.spec.ts'],
    environment: 'node',
    setupFiles: ['src/test-support/setup-mediasoup-env.ts'],
  },
});
