"""Build flame-graph trees from aggregated stacks and prune them to what a browser can draw.

The browser pays for every node it receives (d3-flame-graph creates SVG per frame), so the server
keeps the heaviest nodes up to a budget and folds the rest of each parent's children into one
"(other)" child: totals stay honest and the UI can say what it hid. Nodes whose subtree lost
anything are marked `truncated`, so zooming into them fetches that subtree with a fresh budget.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stallscope.kit.gc import gc_paused

OTHER_NAME = "(other)"
ROOT_NAME = "all"


class FlameNode:
    """A frame in the merged tree; `value` and `samples` are inclusive of the children."""

    __slots__ = ("children", "kind", "name", "samples", "self_samples", "self_value", "size", "value")

    def __init__(self, name: str, kind: str) -> None:
        self.name = name
        self.kind = kind
        self.value = 0
        self.samples = 0
        self.self_value = 0
        self.self_samples = 0
        self.size = 1
        """Nodes in this subtree, itself included: what pruning it would hide."""
        self.children: dict[int | str, FlameNode] = {}


@dataclass(frozen=True, slots=True)
class StackWeight:
    """One aggregated row: a process name, a stack's frame ids (root first), its summed weight."""

    comm: str
    frame_ids: Sequence[int]
    weight: int
    samples: int


@dataclass(frozen=True, slots=True)
class FrameInfo:
    name: str
    kind: str


@dataclass(slots=True)
class FlameTree:
    root: FlameNode
    node_count: int


def build_flame_tree(rows: Iterable[StackWeight], frames: Mapping[int, FrameInfo]) -> FlameTree:
    """Merge stacks into a tree rooted at "all", with process names as the first level.

    Weights land on the leaf only; totals are summed in one reverse pass over the nodes (children
    are always created after their parents), which is cheaper than adding along every path.
    """
    root = FlameNode(ROOT_NAME, "root")
    created: list[tuple[FlameNode, FlameNode]] = []
    with gc_paused():
        for row in rows:
            node = root.children.get(row.comm)
            if node is None:
                node = root.children[row.comm] = FlameNode(row.comm, "process")
                created.append((node, root))
            for frame_id in row.frame_ids:
                child = node.children.get(frame_id)
                if child is None:
                    info = frames[frame_id]
                    child = node.children[frame_id] = FlameNode(info.name, info.kind)
                    created.append((child, node))
                node = child
            node.self_value += row.weight
            node.self_samples += row.samples
        root.value, root.samples = root.self_value, root.self_samples
        for node, _ in created:
            node.value, node.samples = node.self_value, node.self_samples
        for node, parent in reversed(created):
            parent.value += node.value
            parent.samples += node.samples
            parent.size += node.size
    return FlameTree(root, 1 + len(created))


def find_focus(root: FlameNode, path: Sequence[str]) -> FlameNode | None:
    """The node reached by following frame names from the root's children; None if absent."""
    node = root
    for name in path:
        match = next((c for c in node.children.values() if c.name == name), None)
        if match is None:
            return None
        node = match
    return node


@dataclass(frozen=True, slots=True)
class PrunedTree:
    root: dict[str, Any]
    node_count: int
    pruned_nodes: int
    prune_threshold: float
    """Largest folded-away node as a fraction of the shown total (0 when nothing was pruned)."""


def prune_tree(root: FlameNode, max_nodes: int) -> PrunedTree:
    """Keep the `max_nodes` heaviest nodes (a kept node's parent is always kept)."""
    with gc_paused():
        return _prune(root, max_nodes)


def _prune(root: FlameNode, max_nodes: int) -> PrunedTree:
    kept: set[int] = {id(root)}
    tiebreak = 0
    heap: list[tuple[int, int, FlameNode]] = []
    for child in root.children.values():
        heap.append((-child.value, tiebreak, child))
        tiebreak += 1
    heapq.heapify(heap)
    while heap and len(kept) < max_nodes:
        _, _, node = heapq.heappop(heap)
        kept.add(id(node))
        for child in node.children.values():
            heapq.heappush(heap, (-child.value, tiebreak, child))
            tiebreak += 1
    largest_pruned = -heap[0][0] if heap else 0
    pruned_nodes = sum(node.size for _, _, node in heap)

    def emit(node: FlameNode) -> tuple[dict[str, Any], bool]:
        children: list[dict[str, Any]] = []
        other_value = other_samples = 0
        truncated = False
        for child in sorted(node.children.values(), key=lambda c: c.name):
            if id(child) in kept:
                out, child_truncated = emit(child)
                children.append(out)
                truncated = truncated or child_truncated
            else:
                other_value += child.value
                other_samples += child.samples
        if other_value:
            truncated = True
            children.append(
                {
                    "name": OTHER_NAME,
                    "value": other_value,
                    "samples": other_samples,
                    "kind": "other",
                    "children": [],
                }
            )
        emitted: dict[str, Any] = {
            "name": node.name,
            "value": node.value,
            "samples": node.samples,
            "kind": node.kind,
            "children": children,
        }
        if truncated:
            emitted["truncated"] = True
        return emitted, truncated

    tree, _ = emit(root)
    threshold = largest_pruned / root.value if root.value else 0.0
    return PrunedTree(tree, len(kept), pruned_nodes, threshold)


def folded_lines(root: FlameNode, prefix: Sequence[str] = ()) -> list[tuple[str, int]]:
    """The tree back as folded stacks (`a;b;c`, self weight), sorted bytewise like stackcollapse.

    Frames that differ only in kind share a name here, so equal paths are merged as the reference
    tools would have merged them.
    """
    weights: dict[str, int] = {}
    stack: list[tuple[FlameNode, tuple[str, ...]]] = [(root, tuple(prefix))]
    while stack:
        node, path = stack.pop()
        if node.self_value > 0 and path:
            key = ";".join(path)
            weights[key] = weights.get(key, 0) + node.self_value
        for child in node.children.values():
            stack.append((child, (*path, child.name)))
    return sorted(weights.items(), key=lambda line: line[0].encode("utf-8", "surrogateescape"))
