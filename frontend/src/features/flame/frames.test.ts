import { partition, type HierarchyNode } from 'd3';
import { describe, expect, it } from 'vitest';
import type { FlameNode, FrameKind } from '../../api/types';
import type { FlameFrame } from 'd3-flame-graph';
import { frameHierarchy, FrameIds, framePath, minFrameWidth, sourceNode, zoomView, type ChartNode } from './frames';
import { graft } from './tree';

function n(name: string, value: number, children: FlameNode[] = [], kind: FrameKind = 'user'): FlameNode {
  return { name, value, samples: value, kind, children };
}

const tree = (): FlameNode =>
  n('all', 100, [n('app', 60, [n('main', 60, [n('f', 40), n('g', 20)])], 'process'), n('idle', 40, [n('cpu_idle', 40)], 'process')], 'root');

/** Every node's id by path, e.g. "all/app/main". */
function idsByPath(root: HierarchyNode<ChartNode>): Map<string, number> {
  const out = new Map<string, number>();
  root.each((d) => {
    const path = d
      .ancestors()
      .reverse()
      .map((a) => a.data.name)
      .join('/');
    out.set(path, Number(Reflect.get(d, 'id')));
  });
  return out;
}

describe('zoomView', () => {
  it('is the tree itself when not zoomed', () => {
    const t = tree();
    expect(zoomView(t, [])).toBe(t);
  });

  it('keeps the zoomed subtree as is under faded copies of its ancestors', () => {
    const t = tree();
    const main = t.children[0]?.children[0];
    const view = zoomView(t, ['app', 'main']);
    expect(view).toMatchObject({ name: 'all', value: 100, fade: true, source: t });
    expect(view.children.map((c) => c.name)).toEqual(['app']); // the sibling "idle" is left out
    expect(view.children[0]?.fade).toBe(true);
    expect(view.children[0]?.children[0]).toBe(main);
    expect(sourceNode(view)).toBe(t);
    // The input is untouched: no flags written, children intact.
    expect(t).toEqual(tree());
  });

  it('draws the outer ancestors of a deep zoom as one stand-in that keeps their names', () => {
    let chain = n('f39', 1);
    for (let i = 38; i >= 0; i -= 1) chain = n(`f${i}`, 1, [chain]);
    const t = n('all', 1, [chain], 'root');
    const path = Array.from({ length: 40 }, (_, i) => `f${i}`);
    const view = zoomView(t, path, 5);
    const names: string[] = [];
    for (let v: ChartNode | undefined = view; v; v = v.children[0]) names.push(v.name);
    expect(names).toEqual(['all', '⋯ 34 frames', 'f34', 'f35', 'f36', 'f37', 'f38', 'f39']);
    expect(view.children[0]).toMatchObject({ fade: true, skipped: path.slice(0, 34) });
    // A click on any drawn frame still names its whole path.
    // Laid out as d3-flame-graph does; its ids are numbers where d3's typings say strings.
    const laidOut = partition<ChartNode>()(frameHierarchy(view, new FrameIds()).count()) as unknown as FlameFrame<ChartNode>;
    const f36 = laidOut.descendants().find((d) => d.data.name === 'f36');
    expect(f36 && framePath(f36)).toEqual(path.slice(0, 37));
    const standIn = laidOut.descendants().find((d) => d.data.skipped);
    expect(standIn && framePath(standIn)).toEqual(path.slice(0, 34));
    // Short paths are drawn frame by frame.
    expect(zoomView(t, path.slice(0, 6), 5).children[0]?.name).toBe('f0');
  });

  it('stops at the deepest frame of the path that exists', () => {
    const view = zoomView(tree(), ['app', 'nope', 'main']);
    expect(view.children[0]?.name).toBe('app');
    expect(view.children[0]?.fade).toBeUndefined();
  });
});

describe('frame ids', () => {
  it('are the same for the same path, and differ across parents', () => {
    const ids = new FrameIds();
    const a = ids.of(0, 'all');
    expect(ids.of(0, 'all')).toBe(a);
    expect(ids.of(a, 'x')).not.toBe(ids.of(ids.of(a, 'y'), 'x'));
    expect(ids.size).toBe(4);
  });

  it('survive zooming and grafting, so drawn elements are reused', () => {
    const ids = new FrameIds();
    const t = tree();
    const before = idsByPath(frameHierarchy(t, ids));
    const zoomed = idsByPath(frameHierarchy(zoomView(t, ['app']), ids));
    const grafted = idsByPath(frameHierarchy(graft(t, ['app'], n('app', 60, [n('main', 60, [n('f', 40), n('g', 19), n('h', 1)])])), ids));
    expect(zoomed.get('all/app/main/f')).toBe(before.get('all/app/main/f'));
    expect(zoomed.get('all')).toBe(before.get('all'));
    expect(grafted.get('all/app/main/g')).toBe(before.get('all/app/main/g'));
    expect(grafted.get('all/app/main/h')).toBeGreaterThan(Math.max(...before.values()));
    expect(new Set(before.values()).size).toBe(before.size);
  });
});

describe('minFrameWidth', () => {
  it('is the floor while the frames fit the budget', () => {
    expect(minFrameWidth(tree(), 1000, 100)).toBe(1);
  });

  it('leaves out the narrowest frames past the budget', () => {
    // At 1000 px: all 1000, app and main 600, f 400, g 200, idle and cpu_idle 400.
    const t = tree();
    expect(minFrameWidth(t, 1000, 6)).toBe(200);
    // Frames as wide as the cut-off all go, so ties never overrun the budget.
    const min = minFrameWidth(t, 1000, 5);
    expect(min).toBe(400);
    let drawn = 0;
    const stack = [t];
    for (let x = stack.pop(); x; x = stack.pop()) {
      if (x.value * 10 > min) drawn += 1;
      stack.push(...x.children);
    }
    expect(drawn).toBe(3);
  });

  it('scales to the zoomed frame and counts faded ancestors as full width', () => {
    const view = zoomView(tree(), ['app', 'main']);
    // Drawn: all, app (faded, full width), main 1000, f 667, g 333.
    expect(minFrameWidth(view, 1000, 5)).toBe(1);
    expect(minFrameWidth(view, 1000, 4)).toBeCloseTo(1000 / 3);
  });
});
