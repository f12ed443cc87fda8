// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { currentSearch, routeSearchFromHash, searchOfHash } from './currentSearch';

describe('the current route query', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('is the hash route’s query once the bundle viewer routes in the hash', () => {
    expect(searchOfHash('#/flame?captures=3,4&from=x')).toBe('?captures=3,4&from=x');
    expect(searchOfHash('#/')).toBe('');
    expect(searchOfHash('')).toBe('');

    window.history.replaceState(null, '', '/flame?captures=1#/heatmap?captures=2');
    expect(currentSearch()).toBe('?captures=1');
    routeSearchFromHash();
    expect(currentSearch()).toBe('?captures=2');
  });
});
