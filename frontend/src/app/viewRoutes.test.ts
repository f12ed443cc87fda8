import { describe, expect, it } from 'vitest';
import { VIEW_ROUTES } from './viewRoutes';

describe('VIEW_ROUTES', () => {
  it('loads a page component for every lazily loaded view', async () => {
    for (const route of VIEW_ROUTES) {
      expect(typeof route.lazy, route.path).toBe('function');
      const loaded = await (route.lazy as () => Promise<{ Component?: unknown }>)();
      expect(typeof loaded.Component, route.path).toBe('function');
    }
  });
});
