/**
 * What the chart draws, and helpers over d3-flame-graph's laid-out frames. Pure: no DOM.
 *
 * Zooming is done here rather than with d3-flame-graph's own zoom, which writes `hide`/`fade` flags
 * onto every node of the data (so the data had to be deep-copied) and lays out the whole tree on
 * every draw. Here a zoom is a small view tree: the zoomed frame's subtree, as is, under faded
 * copies of its ancestors. Server trees are never written to, so they need no copying.
 */
import { hierarchy, type HierarchyNode } from 'd3';
import type { FlameFrame } from 'd3-flame-graph';
import type { FlameNode } from '../../api/types';

/** A server frame, or a faded stand-in for an ancestor of the zoomed frame. */
export interface ChartNode extends FlameNode {
  children: ChartNode[];
  /** Drawn full width and dimmed (d3-flame-graph counts a faded frame as the sum of its children). */
  fade?: boolean;
  /** For a stand-in: the server frame it stands for, with all its children. */
  source?: FlameNode;
  /** For a stand-in of many ancestors at once: their names, outermost first (see zoomView). */
  skipped?: string[];
}

/**
 * Ancestors of the zoomed frame drawn one by one; above them one stand-in holds the rest. A zoom
 * can be thousands of frames deep, and every ancestor drawn is a 20-pixel row of the chart.
 */
export const MAX_DRAWN_ANCESTORS = 24;

/** The server frame behind a drawn frame (stand-ins hold only the zoomed path as children). */
export const sourceNode = (d: ChartNode): FlameNode => d.source ?? d;

/**
 * The tree to draw for `zoom` (names below the root): the deepest frame of the path that exists,
 * with its whole subtree, under faded copies of its ancestors; siblings are left out. The root
 * itself for an empty path. Only the ancestors are copied. Past `maxAncestors` the outer ones
 * (below the root) are drawn as one faded stand-in, "⋯ N frames", that remembers their names.
 */
export function zoomView(root: FlameNode, zoom: readonly string[], maxAncestors = MAX_DRAWN_ANCESTORS): ChartNode {
  const chain: FlameNode[] = [root];
  let node = root;
  for (const name of zoom) {
    const next = node.children.find((c) => c.name === name);
    if (!next) break;
    chain.push(next);
    node = next;
  }
  let view: ChartNode = node;
  const between = chain.length - 2; // ancestors below the root
  const firstDrawn = between > maxAncestors + 1 ? between - maxAncestors + 1 : 1;
  for (let i = chain.length - 2; i >= firstDrawn; i -= 1) {
    const source = chain[i];
    if (source) view = { ...source, children: [view], fade: true, source };
  }
  if (firstDrawn > 1) {
    const skipped = chain.slice(1, firstDrawn);
    const outer = skipped[0] ?? root;
    const name = `⋯ ${skipped.length.toLocaleString('en-US')} frames`;
    view = { name, value: outer.value, samples: outer.samples, kind: 'root', children: [view], fade: true, skipped: skipped.map((s) => s.name) };
  }
  return chain.length > 1 ? { ...root, children: [view], fade: true, source: root } : view;
}

/**
 * Ids for frames that stay the same for the same path (parent's id + name), whichever tree or view
 * the frame is drawn from. d3-flame-graph joins DOM elements to frames by id, so redraws, zooms and
 * grafted detail reuse the elements already on screen instead of replacing them all.
 */
export class FrameIds {
  private readonly byParent = new Map<number, Map<string, number>>();
  private next = 1;

  /** The id of the frame called `name` under the frame `parent` (0 for the root). */
  of(parent: number, name: string): number {
    let names = this.byParent.get(parent);
    if (!names) {
      names = new Map();
      this.byParent.set(parent, names);
    }
    let id = names.get(name);
    if (id === undefined) {
      id = this.next;
      this.next += 1;
      names.set(name, id);
    }
    return id;
  }

  get size(): number {
    return this.next - 1;
  }
}

/**
 * The d3 hierarchy of a view, with stable ids. d3-flame-graph joins DOM elements to frames on
 * `node.id`, a field that d3's own typings reserve (read-only) for stratify(); hence Reflect.set.
 */
export function frameHierarchy(view: ChartNode, ids: FrameIds): HierarchyNode<ChartNode> {
  const root = hierarchy<ChartNode>(view);
  const stack: [HierarchyNode<ChartNode>, number][] = [[root, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, parentId] = item;
    const id = ids.of(parentId, node.data.name);
    Reflect.set(node, 'id', id);
    if (node.children) for (const child of node.children) stack.push([child, id]);
  }
  return root;
}

/**
 * The narrowest frame to draw, in px: `floorPx`, or more if that would draw over `budget` frames.
 * d3-flame-graph's cost is per frame in the DOM (about 0.1 ms each, with layout and paint), and a
 * zoom into deep recursion can have thousands of 1–2 px slivers; past the budget the narrowest are
 * left out (zooming further shows them). Faded ancestors are drawn full width.
 */
export function minFrameWidth(view: ChartNode, widthPx: number, budget: number, floorPx = 1): number {
  const widths: number[] = [];
  let top = view;
  for (let next = top.children[0]; top.fade && next; next = top.children[0]) {
    widths.push(widthPx);
    top = next;
  }
  const scale = top.value > 0 ? widthPx / top.value : 0;
  const stack: FlameNode[] = [top];
  for (let n = stack.pop(); n; n = stack.pop()) {
    const w = n.value * scale;
    if (w <= floorPx) continue;
    widths.push(w);
    for (const c of n.children) stack.push(c);
  }
  if (widths.length <= budget) return floorPx;
  widths.sort((a, b) => b - a);
  // d3-flame-graph draws frames strictly wider than the minimum: at most `budget` of them.
  return widths[budget] ?? floorPx;
}

/** Names from below the root down to the frame (a stand-in for many ancestors gives all their names). */
export function framePath(d: FlameFrame<ChartNode>): string[] {
  return d
    .ancestors()
    .reverse()
    .slice(1)
    .flatMap((a) => a.data.skipped ?? [a.data.name]);
}

/** The laid-out frame at `path`, or the deepest one that exists. */
export function findFrame(root: FlameFrame<ChartNode>, path: readonly string[]): FlameFrame<ChartNode> {
  let node = root;
  for (const name of path) {
    const next = node.children?.find((c) => c.data.name === name);
    if (!next) break;
    node = next;
  }
  return node;
}
