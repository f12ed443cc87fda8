import { describe, expect, it } from 'vitest';
import type { FlameNode, FrameKind } from '../../api/types';
import { literalMatcher } from '../../shared/regex';
import { findPath, focusToFetch, graft, matchedValue, pathKey, subtreeTruncated, withZoomDetail } from './tree';

/** n('name', value, children, kind) — small hand-written trees. */
function n(name: string, value: number, children: FlameNode[] = [], kind: FrameKind = 'user', truncated = false): FlameNode {
  const node: FlameNode = { name, value, samples: value, kind, children };
  if (truncated) node.truncated = true;
  return node;
}

const tree = (): FlameNode =>
  n('all', 100, [
    n('func_ab', 70, [n('main', 70, [n('func_a', 30), n('func_b', 38), n('(other)', 2, [], 'other')], 'user', true)], 'process'),
    n('swapper', 30, [n('cpu_idle', 30, [], 'kernel')], 'process'),
  ], 'root');

describe('findPath', () => {
  it('follows names below the root', () => {
    expect(findPath(tree(), [])?.name).toBe('all');
    expect(findPath(tree(), ['func_ab', 'main', 'func_b'])?.value).toBe(38);
    expect(findPath(tree(), ['func_ab', 'nope'])).toBeUndefined();
  });
});

describe('graft', () => {
  const focused = n('main', 70, [n('func_a', 30), n('func_b', 38), n('tiny_1', 1), n('tiny_2', 1)]);

  it('grafts at the end of a 100,000-frame path, which no recursion would reach', () => {
    const depth = 100_000;
    let chain = n(`f${depth - 1}`, 3, [], 'user', true);
    for (let i = depth - 2; i >= 0; i -= 1) chain = n(`f${i}`, 3, [chain], 'user', true);
    const path = Array.from({ length: depth }, (_, i) => `f${i}`);
    const before = n('all', 3, [chain], 'root');
    const after = graft(before, path, n(`f${depth - 1}`, 3, [n('leaf', 3)]));
    expect(findPath(after, [...path, 'leaf'])?.value).toBe(3);
    expect(findPath(after, path)?.truncated).toBe(false);
    expect(findPath(before, [...path, 'leaf'])).toBeUndefined();
  });

  it('replaces the subtree at the path and copies only the path', () => {
    const before = tree();
    const after = graft(before, ['func_ab', 'main'], focused);
    expect(findPath(after, ['func_ab', 'main', 'tiny_2'])?.value).toBe(1);
    expect(findPath(after, ['func_ab', 'main'])?.truncated).toBe(false);
    // The input is untouched and the unrelated sibling is shared, not copied.
    expect(findPath(before, ['func_ab', 'main', 'tiny_2'])).toBeUndefined();
    expect(after.children[1]).toBe(before.children[1]);
    expect(after).not.toBe(before);
  });

  it('grafts at the root for an empty path', () => {
    const sub = n('all', 100, [n('x', 100)], 'root');
    expect(graft(tree(), [], sub).children.map((c) => c.name)).toEqual(['x']);
  });

  it('returns the tree unchanged when the path is missing', () => {
    const t = tree();
    expect(graft(t, ['func_ab', 'missing'], focused)).toBe(t);
  });

  it('handles names with separators in them', () => {
    const t = n('all', 2, [n('a;b', 2, [n('c,d', 2)])], 'root');
    const g = graft(t, ['a;b', 'c,d'], n('c,d', 2, [n('e', 2)]));
    expect(findPath(g, ['a;b', 'c,d', 'e'])?.value).toBe(2);
  });
});

describe('focusToFetch', () => {
  it('asks for the zoomed frame when its subtree was pruned', () => {
    expect(focusToFetch(tree(), ['func_ab'], new Set())).toEqual(['func_ab']);
    expect(focusToFetch(tree(), ['func_ab', 'main'], new Set())).toEqual(['func_ab', 'main']);
  });
  it('asks for nothing when the subtree is complete, not zoomed, or already loaded', () => {
    expect(focusToFetch(tree(), ['swapper'], new Set())).toBeNull();
    expect(focusToFetch(tree(), [], new Set())).toBeNull();
    expect(focusToFetch(tree(), ['func_ab', 'main'], new Set([pathKey(['func_ab', 'main'])]))).toBeNull();
  });
  it('asks for the deepest existing ancestor of a frame that was pruned away', () => {
    expect(focusToFetch(tree(), ['func_ab', 'main', 'tiny_1', 'deeper'], new Set())).toEqual(['func_ab', 'main']);
  });
  it('follows a chain of grafts down to a deep link', () => {
    let t = tree();
    const loaded = new Set<string>();
    const server: Record<string, FlameNode> = {
      [pathKey(['func_ab', 'main'])]: n('main', 70, [n('func_a', 30), n('tiny_1', 2, [n('(other)', 2, [], 'other')], 'user', true)]),
      [pathKey(['func_ab', 'main', 'tiny_1'])]: n('tiny_1', 2, [n('deeper', 2)]),
    };
    const zoom = ['func_ab', 'main', 'tiny_1', 'deeper'];
    for (let need = focusToFetch(t, zoom, loaded); need; need = focusToFetch(t, zoom, loaded)) {
      const sub = server[pathKey(need)];
      expect(sub).toBeDefined();
      if (!sub) break;
      t = graft(t, need, sub);
      loaded.add(pathKey(need));
    }
    expect(findPath(t, zoom)?.value).toBe(2);
  });
});

describe('withZoomDetail', () => {
  it('fetches each pruned level on the way to a deep zoom once, and grafts it in', async () => {
    const asked: string[][] = [];
    const answers: Record<string, FlameNode> = {
      [pathKey(['func_ab', 'main'])]: n('main', 70, [n('func_a', 30), n('func_b', 38), n('tiny', 2, [n('(other)', 2, [], 'other')], 'user', true)]),
      [pathKey(['func_ab', 'main', 'tiny'])]: n('tiny', 2, [n('leaf', 2)]),
    };
    const zoomed = await withZoomDetail(tree(), ['func_ab', 'main', 'tiny', 'leaf'], (path) => {
      asked.push(path);
      const answer = answers[pathKey(path)];
      return answer ? Promise.resolve(answer) : Promise.reject(new Error(`unexpected ${pathKey(path)}`));
    });
    expect(asked).toEqual([
      ['func_ab', 'main'],
      ['func_ab', 'main', 'tiny'],
    ]);
    expect(zoomed.grafted).toEqual(asked);
    expect(findPath(zoomed.tree, ['func_ab', 'main', 'tiny', 'leaf'])?.value).toBe(2);
  });

  it('fetches nothing when the zoomed frame is complete', async () => {
    const zoomed = await withZoomDetail(tree(), ['swapper'], () => Promise.reject(new Error('no fetch expected')));
    expect(zoomed.grafted).toEqual([]);
    expect(zoomed.tree).toEqual(tree());
  });
});

describe('matchedValue', () => {
  it('sums matched frames and counts nested matches once', () => {
    const t = n('all', 10, [n('p', 10, [n('foo', 6, [n('foo_inner', 4)]), n('bar', 4, [n('foo', 1)])], 'process')], 'root');
    expect(matchedValue(t, literalMatcher('foo'))).toBe(7);
    expect(matchedValue(t, literalMatcher('FOO_inner'))).toBe(4);
    expect(matchedValue(t, literalMatcher(''))).toBe(0);
  });
  it('never matches the root', () => {
    expect(matchedValue(tree(), literalMatcher('all'))).toBe(0);
  });
  it('gives the matched share used by the toolbar', () => {
    const t = tree();
    expect(matchedValue(t, literalMatcher('func_')) / t.value).toBe(0.7);
  });
});

describe('helpers', () => {
  it('truncation checks, also on deep trees', () => {
    const t = tree();
    let deep: FlameNode = n('leaf', 1, [], 'user', true);
    for (let i = 0; i < 50000; i += 1) deep = n(`f${i}`, 1, [deep]);
    expect(subtreeTruncated(deep)).toBe(true);
    expect(subtreeTruncated(t)).toBe(true);
    expect(subtreeTruncated(t.children[1] ?? t)).toBe(false);
  });
});
