import { defineConfig } from 'vitest/config';

/** The plain-Node scripts behind `npm start` and `npm test`. */
export default defineConfig({
  test: { name: 'scripts', root: import.meta.dirname, include: ['**/*.spec.mjs'], environment: 'node' },
});
