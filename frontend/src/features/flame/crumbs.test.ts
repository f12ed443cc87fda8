import { describe, expect, it } from 'vitest';
import { crumbIndexes, EDGE_CRUMBS } from './crumbs';

describe('crumbIndexes', () => {
  it('shows every frame of a short path', () => {
    expect(crumbIndexes(0)).toEqual([]);
    const fits = EDGE_CRUMBS.first + EDGE_CRUMBS.last + 1;
    expect(crumbIndexes(fits)).toEqual(Array.from({ length: fits }, (_, i) => i));
  });

  it('shows both ends of a 100,000-frame path and one gap between them', () => {
    const shown = crumbIndexes(100_000);
    expect(shown).toHaveLength(EDGE_CRUMBS.first + EDGE_CRUMBS.last + 1);
    expect(shown.slice(0, EDGE_CRUMBS.first + 1)).toEqual([0, 1, 2, null]);
    expect(shown.at(-1)).toBe(99_999);
    expect(shown[EDGE_CRUMBS.first + 1]).toBe(100_000 - EDGE_CRUMBS.last);
  });
});
