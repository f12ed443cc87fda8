"""Build flame-graph trees from aggregated stacks and prune them to what a browser can draw.

The browser pays for every node it receives (d3-flame-graph creates SVG per frame), so the server
keeps the heaviest nodes up to a budget and folds the rest of each parent's children into one
"(other)" child: totals stay honest and the UI can say what it hid. Nodes whose subtree lost
anything are marked `truncated`, so zooming into them fetches that subtree with a fresh budget.

Depth is budgeted too (`max_depth`): a stack can be 100,000 frames deep, and a browser drawing
20 pixels a level cannot show that, nor can a zoom path that long travel in a URL. Below the budget
a node's children are folded into one "(deeper)" child that carries their weight and how many
frames it stands for; the node is `truncated`, so a zoom into it fetches the next levels.

Everything here walks the tree with explicit stacks, never recursion: deep stacks make deep trees.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stallscope.kit.gc import gc_paused

OTHER_NAME = "(other)"
DEEPER_NAME = "(deeper)"
"""The child standing for everything below the depth budget; its `folded_frames` says how much."""
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
    tree: dict[str, Any] | None
    """The answer's tree as dicts, or None when it was written as `text`."""
    node_count: int
    pruned_nodes: int
    """Nodes not sent, whether folded into "(other)" or "(deeper)"."""
    prune_threshold: float
    """Largest folded-away node as a fraction of the shown total (0 when nothing was pruned)."""
    deep_nodes: int = 0
    """Of `pruned_nodes`, those below the depth budget (folded into "(deeper)" children)."""
    height: int = 0
    """Levels below `root` in the answer, folded children included."""
    text: str | None = None
    """The answer's tree as JSON text, when it was written from arrays (`analysis/tree_text.py`)."""

    @property
    def root(self) -> dict[str, Any]:
        """The tree as dicts, parsed from `text` when it was written as text."""
        return tree_as_dicts(self.tree, self.text)


def tree_as_dicts(tree: dict[str, Any] | None, text: str | None) -> dict[str, Any]:
    """An answer's tree, given as dicts or written as JSON text (one of the two)."""
    if tree is not None:
        return tree
    assert text is not None
    parsed: dict[str, Any] = json.loads(text)
    return parsed


def prune_tree(root: FlameNode, max_nodes: int, max_depth: int | None = None) -> PrunedTree:
    """Keep the `max_nodes` heaviest nodes (a kept node's parent is always kept), none of them more
    than `max_depth` levels below `root` (no limit for None)."""
    with gc_paused():
        return _prune(root, max_nodes, max_depth)


def _prune(root: FlameNode, max_nodes: int, max_depth: int | None) -> PrunedTree:
    depth_limit = max(max_depth, 1) if max_depth is not None else None
    kept: set[int] = {id(root)}
    deep: set[int] = set()  # kept nodes at the depth limit: their children fold into "(deeper)"
    deep_nodes = 0
    tiebreak = 0
    heap: list[tuple[int, int, int, FlameNode]] = []
    for child in root.children.values():
        heap.append((-child.value, tiebreak, 1, child))
        tiebreak += 1
    heapq.heapify(heap)
    while heap and len(kept) < max_nodes:
        _, _, depth, node = heapq.heappop(heap)
        kept.add(id(node))
        if depth_limit is not None and depth >= depth_limit:
            if node.children:
                deep.add(id(node))
                deep_nodes += node.size - 1
            continue
        for child in node.children.values():
            heapq.heappush(heap, (-child.value, tiebreak, depth + 1, child))
            tiebreak += 1
    largest_pruned = -heap[0][0] if heap else 0
    pruned_nodes = deep_nodes + sum(node.size for _, _, _, node in heap)
    tree, height = _emit(root, kept, deep)
    threshold = largest_pruned / root.value if root.value else 0.0
    return PrunedTree(tree, len(kept), pruned_nodes, threshold, deep_nodes, height)


def _emitted(name: str, value: int, samples: int, kind: str) -> dict[str, Any]:
    return {"name": name, "value": value, "samples": samples, "kind": kind, "children": []}


def _emit(root: FlameNode, kept: set[int], deep: set[int]) -> tuple[dict[str, Any], int]:
    """The kept nodes as d3-flame-graph JSON, children by name, and its height.

    Each node's children are emitted when the node is visited, in name order, so the walk's own
    order does not matter. `truncated` is set where something was folded, then carried up to every
    ancestor in one reverse pass (children are emitted after their parents).
    """
    top = _emitted(root.name, root.value, root.samples, root.kind)
    emitted: list[tuple[dict[str, Any], int]] = [(top, -1)]  # each with its parent's index here
    pending: list[tuple[FlameNode, int, int]] = [(root, 0, 0)]  # node, index in `emitted`, depth
    height = 0
    while pending:
        node, index, depth = pending.pop()
        out = emitted[index][0]
        children: list[dict[str, Any]] = out["children"]
        if depth > height:
            height = depth
        if id(node) in deep:
            marker = _emitted(
                DEEPER_NAME, node.value - node.self_value, node.samples - node.self_samples, "deeper"
            )
            marker["folded_frames"] = node.size - 1
            children.append(marker)
            out["truncated"] = True
            height = max(height, depth + 1)
            continue
        other_value = other_samples = 0
        for child in sorted(node.children.values(), key=lambda c: c.name):
            if id(child) in kept:
                children.append(_emitted(child.name, child.value, child.samples, child.kind))
                emitted.append((children[-1], index))
                pending.append((child, len(emitted) - 1, depth + 1))
            else:
                other_value += child.value
                other_samples += child.samples
        if other_value:
            children.append(_emitted(OTHER_NAME, other_value, other_samples, "other"))
            out["truncated"] = True
            height = max(height, depth + 1)
    for out, parent in reversed(emitted):
        if parent >= 0 and "truncated" in out:
            emitted[parent][0]["truncated"] = True
    return top, height


def folded_lines(root: FlameNode, prefix: Sequence[str] = ()) -> list[tuple[str, int]]:
    """The tree back as folded stacks (`a;b;c`, self weight), sorted bytewise like stackcollapse.

    Frames that differ only in kind share a name here, so equal paths are merged as the reference
    tools would have merged them. One path list is shared by the whole walk and joined only where a
    stack ends: the work is the size of the output, however deep the stacks (copying the path at
    every node was quadratic in the depth: minutes for one 100,000-frame stack).
    """
    weights: dict[str, int] = {}
    path = list(prefix)
    if root.self_value > 0 and path:
        weights[";".join(path)] = root.self_value
    # Nodes to visit, each with the length of the path above it.
    pending: list[tuple[FlameNode, int]] = [(child, len(path)) for child in root.children.values()]
    while pending:
        node, above = pending.pop()
        del path[above:]
        path.append(node.name)
        if node.self_value > 0:
            key = ";".join(path)
            weights[key] = weights.get(key, 0) + node.self_value
        below = above + 1
        pending.extend((child, below) for child in node.children.values())
    return sorted(weights.items(), key=lambda line: line[0].encode("utf-8", "surrogateescape"))
