/**
 * Route-level code splitting: a route's page module is imported the first time the route matches.
 * React Router waits for it before leaving the current page, so no loading flash replaces a page
 * that is still on screen.
 */
import type { ComponentType } from 'react';

export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): () => Promise<{ Component: ComponentType }> {
  return async () => ({ Component: pick(await load()) });
}
