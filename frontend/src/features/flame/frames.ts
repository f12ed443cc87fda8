/** Helpers over d3-flame-graph's laid-out frames. */
import type { FlameFrame } from 'd3-flame-graph';
import type { FlameNode } from '../../api/types';

/** Names from below the root down to the frame. */
export function framePath(d: FlameFrame<FlameNode>): string[] {
  return d
    .ancestors()
    .reverse()
    .slice(1)
    .map((a) => a.data.name);
}

/** The laid-out frame at `path`, or the deepest one that exists. */
export function findFrame(root: FlameFrame<FlameNode>, path: readonly string[]): FlameFrame<FlameNode> {
  let node = root;
  for (const name of path) {
    const next = node.children?.find((c) => c.data.name === name);
    if (!next) break;
    node = next;
  }
  return node;
}
