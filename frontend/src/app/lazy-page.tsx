import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/**
 * A route whose page is its own chunk, fetched when first opened (a first visit downloads the shell and that
 * page only). `path` is relative, to sit among the app shell's children.
 */
export function lazyPage(path: string | undefined, load: () => Promise<ComponentType>): RouteObject {
  return {
    ...(path === undefined ? { index: true } : { path }),
    // Shown inside the shell while the page a visitor lands on still loads; without it the router renders nothing,
    // shell included, until the chunk arrives.
    HydrateFallback: PageLoading,
    lazy: async () => ({ Component: await load() }),
  };
}

export function PageLoading() {
  return (
    <p className="visually-hidden" role="status">
      Loading page…
    </p>
  );
}
