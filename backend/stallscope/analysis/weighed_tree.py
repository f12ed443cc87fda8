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

import numpy as np
from numpy.typing import NDArray

from stallscope.analysis.callsites import PROCESS_LEVEL, ROOT, CallsiteTree, Int32s, Int64s, unique_inverse
from stallscope.analysis.flame import DEEPER_NAME, OTHER_NAME, ROOT_NAME, FrameInfo, PrunedTree
from stallscope.analysis.tree_text import (
    CHILDREN,
    TRUNCATED,
    assemble,
    json_string,
    layout,
    node_text,
    number_texts,
)
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
    columns = np.zeros((tree.node_count, SIZE + 1), dtype=np.int64)
    np.add.at(columns[:, SELF_VALUE], leaves, weights)
    np.add.at(columns[:, SELF_SAMPLES], leaves, samples)
    columns[:, [VALUE, SAMPLES]] = columns[:, [SELF_VALUE, SELF_SAMPLES]]
    tree.sum_up(columns[:, VALUE : SAMPLES + 1])  # a view: summed in place
    # A node is in the view when anything at or below it has samples; a subtree's size counts those.
    columns[:, SIZE] = columns[:, SAMPLES] > 0
    tree.sum_up(columns[:, SIZE : SIZE + 1])
    return WeighedTree(tree, columns)


@dataclass(frozen=True, slots=True)
class Labels:
    """Names and kinds of some nodes, as indexes into small tables: most nodes share their name with
    others (a function called from many places), so the tables are what gets sorted and encoded."""

    name_ids: Int64s
    names: list[str]
    kind_ids: Int64s
    kinds: list[str]


def node_labels(
    tree: CallsiteTree, nodes: NDArray[np.int64], levels: NDArray[np.int64], frames: Mapping[int, FrameInfo]
) -> Labels:
    """`nodes`' names and kinds: the root's, processes' from the tree, frames' from `frames`.

    Table of names: the root, then the processes, then each distinct frame of `nodes`."""
    keys = tree.key[nodes].astype(np.int64)
    is_frame = levels > PROCESS_LEVEL
    distinct, inverse = unique_inverse(keys[is_frame])
    infos = [frames[key] for key in distinct.tolist()]
    names = [ROOT_NAME, *tree.comms, *(info.name for info in infos)]
    kinds = ["root", "process", *sorted({info.kind for info in infos})]
    kind_index = {kind: i for i, kind in enumerate(kinds)}
    frame_kinds = np.array([kind_index[info.kind] for info in infos], dtype=np.int64)
    name_ids = np.where(levels == PROCESS_LEVEL, keys + 1, 0)
    name_ids[is_frame] = 1 + len(tree.comms) + inverse
    kind_ids = np.where(levels == PROCESS_LEVEL, 1, 0)
    kind_ids[is_frame] = frame_kinds[inverse]
    return Labels(name_ids, names, kind_ids, kinds)


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

    def labels(self, nodes: NDArray[np.int64], levels: NDArray[np.int64]) -> Labels:
        """Names and kinds of `nodes` (on `levels`), loaded first; in bulk, for the nodes a view sends."""
        self.load_levels(nodes)
        return node_labels(self._tree, nodes, levels, self._frames)

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
    Python only writes the text that is sent (`analysis/tree_text.py`).
    """
    with gc_paused():  # a tuple per node and field: no cycles, and collections would scan them all
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

    labels = namer.labels(kept, levels)
    kind_texts = [json_string(kind) for kind in labels.kinds]
    folded_text: dict[int, str] = {}
    deeper_at = np.flatnonzero(deeper)
    for i, (value, samples), size in zip(
        deeper_at.tolist(), below[deeper_at].tolist(), rows[deeper_at, SIZE].tolist(), strict=True
    ):
        folded_text[i] = node_text(
            DEEPER_NAME, f',"value":{value},"samples":{samples},"kind":"deeper","folded_frames":{size - 1}'
        )
    other_at = np.flatnonzero(other)
    for i, (value, samples) in zip(
        other_at.tolist(), (below[other_at] - shown[other_at]).tolist(), strict=True
    ):
        folded_text[i] = node_text(OTHER_NAME, f',"value":{value},"samples":{samples},"kind":"other"')
    folded = deeper | other
    truncated, heights = folding_marks(above, depths, folded)
    tree_layout = layout(above, depths, labels.name_ids, labels.names)
    opens = [
        f'{start},"value":{value},"samples":{samples},"kind":{kind_texts[kind]}'
        f"{TRUNCATED if mark else ''}{CHILDREN}"
        for start, kind, value, samples, mark in zip(
            tree_layout.starts,
            labels.kind_ids.tolist(),
            number_texts(rows[:, VALUE]),
            number_texts(rows[:, SAMPLES]),
            truncated.tolist(),
            strict=True,
        )
    ]
    text = assemble(tree_layout, opens, folded_text)
    height = int(heights[0])
    total = int(columns[top, VALUE])
    pruned_nodes = max(int(columns[top, SIZE]), 1) - len(kept)  # `top` is sent even when empty
    threshold = largest_left_out / total if total else 0.0
    deep_nodes = int((rows[deeper, SIZE] - 1).sum())
    return PrunedTree(None, len(kept), pruned_nodes, threshold, deep_nodes, height, text)


def kept_layout(tree: CallsiteTree, kept: NDArray[np.int64]) -> tuple[Int64s, Int64s, Int64s]:
    """For kept nodes (in index order, the first the top): their levels, their depths below the top,
    and each one's parent as a position in `kept` (-1 for the top)."""
    levels = np.searchsorted(tree.level_starts, kept, side="right") - 1
    above = np.searchsorted(kept, tree.parent[kept])
    above[0] = -1
    return levels, levels - levels[0], above


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
