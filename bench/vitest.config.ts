import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'bench', root: import.meta.dirname, include: ['**/*.spec.ts'], exclude: ['**/node_modules/**'] },
});
