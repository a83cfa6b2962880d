import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'proto', root: import.meta.dirname, include: ['src/**/*.spec.ts'], environment: 'node' },
});
