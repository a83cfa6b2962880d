import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Pages are lazy chunks (routes.tsx): the first test to open one waits for Vite to transform it, which under a full,
// parallel run can pass Testing Library's 1 s default. Waiting longer only matters when something is missing.
configure({ asyncUtilTimeout: 10_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});
