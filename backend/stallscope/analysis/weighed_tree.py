"""A call-site tree weighed for one view, and its heaviest nodes as the JSON d3-flame-graph draws.

Weights come from the database per (process, stack) pair; they land on the pairs' leaf nodes and are
summed up the tree (`CallsiteTree.sum_up`). Pruning then needs no walk at all: a child never weighs
more than its parent, so the N heaviest nodes of a subtree already form a tree (ties go to the
shallower node, which is the parent), and one partition of the subtree's weights finds them.

What the pruning leaves out stays in the totals: each kept node's children that were not kept are
summed into one "(other)" child, and a kept node at the depth budget gets one "(deeper)" child for
everything below it (see `analysis.flame` for why both budgets exist).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stallscope.analysis.callsites import PROCESS_LEVEL, ROOT, CallsiteTree, Int32s, Int64s
from stallscope.analysis.flame import DEEPER_NAME, OTHER_NAME, ROOT_NAME, TALL_LEVELS, FrameInfo, PrunedTree
from stallscope.kit.gc import gc_paused

VALUE, SAMPLES, SELF_VALUE, SELF_SAMPLES, SIZE = range(5)
"""Columns of `WeighedTree.columns`; SIZE counts the nodes of a subtree that have samples."""

FrameLookup = Callable[[Iterable[int]], Mapping[int, FrameInfo]]
"""Names and kinds of frame ids (a cached catalog in the service)."""


@dataclass(frozen=True, slots=True, eq=False)
class WeighedTree:
    tree: CallsiteTree
    columns: NDArray[np.int64]
    """Per node: inclusive value and samples, self value and samples, present nodes below and itself."""

    @property
    def value(self) -> Int64s:
        return self.columns[:, VALUE]

    @property
    def samples(self) -> Int64s:
        return self.columns[:, SAMPLES]


def weigh(tree: CallsiteTree, leaves: Int32s, weights: Int64s, samples: Int64s) -> WeighedTree:
    """Add each row's weight and samples at its leaf, then sum everything up to the root.

    Rows whose leaf is -1 (a pair the tree lacks) must have been dealt with by the caller.
    """
    columns = np.zeros((tree.node_count, 5), dtype=np.int64)
    np.add.at(columns[:, SELF_VALUE], leaves, weights)
    np.add.at(columns[:, SELF_SAMPLES], leaves, samples)
    columns[:, VALUE] = columns[:, SELF_VALUE]
    columns[:, SAMPLES] = columns[:, SELF_SAMPLES]
    inclusive = columns[:, [VALUE, SAMPLES]]
    tree.sum_up(inclusive)
    columns[:, [VALUE, SAMPLES]] = inclusive
    # A node is in the view when anything at or below it has samples; a subtree's size counts those.
    size = (columns[:, [SAMPLES]] > 0).astype(np.int64)
    tree.sum_up(size)
    columns[:, SIZE] = size[:, 0]
    return WeighedTree(tree, columns)


class Namer:
    """Names and kinds of nodes: processes from the tree, frames from the catalog, fetched in bulk."""

    def __init__(self, tree: CallsiteTree, lookup: FrameLookup) -> None:
        self._tree = tree
        self._lookup = lookup
        self._frames: dict[int, FrameInfo] = {}

    def load(self, nodes: Iterable[int]) -> None:
        self.load_levels(np.fromiter(nodes, dtype=np.int64))

    def load_levels(self, nodes: NDArray[np.int64]) -> None:
        """Names of the frames among `nodes`, fetched in one lookup."""
        tree = self._tree
        frame_nodes = nodes[nodes >= tree.level_starts[PROCESS_LEVEL + 1]]
        wanted = set(np.unique(tree.key[frame_nodes]).tolist()).difference(self._frames)
        if wanted:
            self._frames.update(self._lookup(wanted))

    def names_kinds(self, nodes: NDArray[np.int64], levels: NDArray[np.int64]) -> tuple[list[str], list[str]]:
        """Names and kinds of `nodes` (on `levels`), loaded first; in bulk, for the nodes a view sends."""
        self.load_levels(nodes)
        tree, frames = self._tree, self._frames
        names: list[str] = []
        kinds: list[str] = []
        for key, level in zip(tree.key[nodes].tolist(), levels.tolist(), strict=True):
            if level > PROCESS_LEVEL:
                info = frames[key]
                names.append(info.name)
                kinds.append(info.kind)
            elif level == PROCESS_LEVEL:
                names.append(tree.comms[key])
                kinds.append("process")
            else:
                names.append(ROOT_NAME)
                kinds.append("root")
        return names, kinds

    def name_kind(self, node: int, level: int) -> tuple[str, str]:
        if level == 0:
            return ROOT_NAME, "root"
        key = int(self._tree.key[node])
        if level == PROCESS_LEVEL:
            return self._tree.comms[key], "process"
        info = self._frames[key]
        return info.name, info.kind


def find(weighed: WeighedTree, namer: Namer, path: Sequence[str]) -> int | None:
    """The node reached by following names from the root (process first) among nodes with samples;
    None if absent. Siblings sharing a name (frames of different kinds) resolve to the first."""
    tree, samples = weighed.tree, weighed.samples
    node = ROOT
    for depth, name in enumerate(path, start=1):
        first, end = tree.children(node)
        candidates = [c for c in range(first, end) if samples[c] > 0]
        namer.load(candidates)
        node = next((c for c in candidates if namer.name_kind(c, depth)[0] == name), -1)
        if node < 0:
            return None
    return node


def heaviest(
    tree: CallsiteTree,
    top: int,
    max_nodes: int,
    max_levels: int | None,
    weight: NDArray[np.int64] | NDArray[np.float64],
    present: NDArray[np.bool_],
) -> tuple[NDArray[np.int64], float]:
    """The `max_nodes` heaviest `present` nodes of `top`'s subtree by `weight`, at most `max_levels`
    below it, in index order (parents first), and the largest weight left out (0 if none).

    Ties go to the shallower node, then the lower index, so a kept node's parent is always kept.
    """
    runs = tree.subtree_runs(top, max_levels)
    candidates = np.concatenate([np.arange(lo, hi, dtype=np.int64) for lo, hi in runs])
    shown = present[candidates]
    shown[0] = True  # `top` itself, even when nothing was sampled: an empty view is its root alone
    candidates = candidates[shown]
    if len(candidates) <= max_nodes:
        return candidates, 0.0
    ranked = weight[candidates]
    cut = np.partition(ranked, len(ranked) - max_nodes)[len(ranked) - max_nodes]
    above = ranked > cut
    kept = candidates[above]
    ties = candidates[ranked == cut]  # in level order, then index: parents first
    room = max_nodes - len(kept)
    kept = np.sort(np.concatenate((kept, ties[:room])))
    if len(ties) > room:
        return kept, float(cut)
    below = ranked[ranked < cut]
    return kept, float(below.max()) if len(below) else 0.0


def prune(weighed: WeighedTree, namer: Namer, top: int, max_nodes: int, max_depth: int | None) -> PrunedTree:
    """`top`'s subtree as d3-flame-graph JSON: its `max_nodes` heaviest nodes, `max_depth` levels deep.

    The arithmetic (what each kept node's "(other)" or "(deeper)" child carries) is done on arrays;
    Python only builds the dicts that are sent.
    """
    with gc_paused():  # tens of thousands of dicts and no cycles (see kit/gc.py)
        return _prune(weighed, namer, top, max_nodes, max_depth)


def _prune(weighed: WeighedTree, namer: Namer, top: int, max_nodes: int, max_depth: int | None) -> PrunedTree:
    limit = None if max_depth is None else max(max_depth, 1)
    kept, largest_left_out = heaviest(
        weighed.tree, top, max(max_nodes, 1), limit, weighed.value, weighed.samples > 0
    )
    tree, columns = weighed.tree, weighed.columns
    rows = columns[kept]
    levels, depths, above = kept_layout(tree, kept)
    shown = np.zeros((len(kept), 2), dtype=np.int64)
    np.add.at(shown, above[1:], rows[1:, [VALUE, SAMPLES]])
    below = rows[:, [VALUE, SAMPLES]] - rows[:, [SELF_VALUE, SELF_SAMPLES]]
    at_limit = depths >= limit if limit is not None else np.zeros(len(kept), dtype=bool)
    deeper = at_limit & (rows[:, SIZE] > 1)
    other = ~at_limit & (below[:, 0] - shown[:, 0] != 0)

    names, kinds = namer.names_kinds(kept, levels)
    outs: list[dict[str, Any]] = [
        {"name": name, "value": value, "samples": samples, "kind": kind, "children": []}
        for name, kind, value, samples in zip(
            names, kinds, rows[:, VALUE].tolist(), rows[:, SAMPLES].tolist(), strict=True
        )
    ]
    link_children(outs, above)
    deeper_at = np.flatnonzero(deeper)
    for i, (value, samples), size in zip(
        deeper_at.tolist(), below[deeper_at].tolist(), rows[deeper_at, SIZE].tolist(), strict=True
    ):
        outs[i]["children"].append(
            {
                "name": DEEPER_NAME,
                "value": value,
                "samples": samples,
                "kind": "deeper",
                "children": [],
                "folded_frames": size - 1,
            }
        )
    other_at = np.flatnonzero(other)
    for i, (value, samples) in zip(
        other_at.tolist(), (below[other_at] - shown[other_at]).tolist(), strict=True
    ):
        outs[i]["children"].append(
            {"name": OTHER_NAME, "value": value, "samples": samples, "kind": "other", "children": []}
        )
    folded = deeper | other
    truncated, heights = folding_marks(above, depths, folded)
    for i in np.flatnonzero(truncated).tolist():
        outs[i]["truncated"] = True
    height = int(heights[0])
    tall = frozenset(id(outs[i]) for i in np.flatnonzero(heights >= TALL_LEVELS).tolist())
    total = int(columns[top, VALUE])
    pruned_nodes = max(int(columns[top, SIZE]), 1) - len(kept)  # `top` is sent even when empty
    threshold = largest_left_out / total if total else 0.0
    deep_nodes = int((rows[deeper, SIZE] - 1).sum())
    return PrunedTree(outs[0], len(kept), pruned_nodes, threshold, deep_nodes, height, tall)


def kept_layout(tree: CallsiteTree, kept: NDArray[np.int64]) -> tuple[Int64s, Int64s, Int64s]:
    """For kept nodes (in index order, the first the top): their levels, their depths below the top,
    and each one's parent as a position in `kept` (-1 for the top)."""
    levels = np.searchsorted(tree.level_starts, kept, side="right") - 1
    above = np.searchsorted(kept, tree.parent[kept])
    above[0] = -1
    return levels, levels - levels[0], above


def link_children(outs: list[dict[str, Any]], above: Int64s) -> None:
    """Put each emitted node in its parent's `children`, siblings in name order."""
    for out, parent in zip(outs[1:], above[1:].tolist(), strict=True):
        outs[parent]["children"].append(out)
    by_name = itemgetter("name")
    for out in outs:
        if len(out["children"]) > 1:
            out["children"].sort(key=by_name)


def folding_marks(
    above: Int64s, depths: Int64s, folded: NDArray[np.bool_]
) -> tuple[NDArray[np.bool_], Int64s]:
    """For kept nodes (in level order, `above` their parents' positions): which are `truncated` (they
    or a node below folded something) and how many levels each has below it in the answer (a folded
    child counts one). Carried up a level at a time; within a level, siblings are neighbours, so a
    level is one `reduceat` per mark."""
    truncated = folded.copy()
    heights = folded.astype(np.int64)
    bounds = np.flatnonzero(np.diff(depths)) + 1
    levels = np.split(np.arange(len(depths)), bounds)
    for run in reversed(levels[1:]):
        parents = above[run]
        starts = np.flatnonzero(np.concatenate(([True], parents[1:] != parents[:-1])))
        targets = parents[starts]
        truncated[targets] |= np.logical_or.reduceat(truncated[run], starts)
        heights[targets] = np.maximum(heights[targets], np.maximum.reduceat(heights[run], starts) + 1)
    return truncated, heights
