"""Differential flame graphs on a call-site tree: both sides weighed on one tree merged by name.

The semantics are `analysis.diff`'s (read its docstring: normalisation, deltas, share deltas, the
function table, "(other)" and "(deeper)"); this module computes them on arrays. Frames merge by
name, not by stored frame id, as the diff always has: a frame whose kind differs between two hosts
(`[unknown]` in user and kernel space) is one function to compare.

Both sides are weighed on the same tree, so a node's A and B weights are two columns of one array,
and pruning ranks nodes by the larger side (B, or A scaled) as `analysis.diff` does: ranking by B
alone would fold away every frame that vanished in B, often what a diff is opened to find.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stallscope.analysis.callsites import PROCESS_LEVEL, ROOT, CallsiteTree, Int32s, Int64s, merge
from stallscope.analysis.diff import (
    DIGITS,
    SHARE_DIGITS,
    DiffResult,
    FunctionDelta,
    Normalize,
    scale_for,
    top_functions,
)
from stallscope.analysis.flame import DEEPER_NAME, OTHER_NAME, ROOT_NAME, TALL_LEVELS
from stallscope.analysis.weighed_tree import (
    SAMPLES,
    SELF_VALUE,
    VALUE,
    FrameLookup,
    WeighedTree,
    folding_marks,
    heaviest,
    kept_layout,
    link_children,
    weigh,
)
from stallscope.kit.gc import gc_paused


@dataclass(frozen=True, slots=True, eq=False)
class NamedTree:
    """A call-site tree whose frame keys are each name's lowest frame id (frames merged by name)."""

    tree: CallsiteTree
    _functions: list[FunctionIndex] = field(default_factory=list, repr=False)

    def functions(self) -> FunctionIndex:
        """Which frame nodes belong to which function, computed once per tree (every diff of its
        captures shares it)."""
        if not self._functions:
            self._functions.append(FunctionIndex.of(self.tree))
        return self._functions[0]


@dataclass(frozen=True, slots=True)
class FunctionIndex:
    """Frame nodes grouped by function, so a function's weights are one `reduceat` away.

    `self_order` lists every frame node (as an offset from the first frame node) grouped by
    function, `self_starts` where each function's group begins; `total_order` and `total_starts`
    do the same for the nodes that are a stack's outermost call of their function (its total is
    the sum of those: recursion counts once). `names` holds each function's frame id.
    """

    frames_start: int
    names: Int64s
    self_order: Int64s
    self_starts: Int64s
    total_order: Int64s
    total_starts: Int64s
    total_names: Int64s
    """Which function each `total_starts` group is (a function has outermost calls wherever it has
    calls at all, but kept explicit rather than assumed)."""

    @staticmethod
    def of(tree: CallsiteTree) -> FunctionIndex:
        """One sort groups the frame nodes by function, in depth-first order within a function.

        A node's subtree is the depth-first range [pre, end); a node is not its stack's outermost
        call of its function when an earlier node of that function (in that order) has a range still
        open at it, which in that order is one running maximum of `end`.
        """
        frames_start = int(tree.level_starts[min(PROCESS_LEVEL + 1, tree.levels)])
        names, inverse = np.unique(tree.key[frames_start:].astype(np.int64), return_inverse=True)
        pre, end = _preorder(tree)
        span = tree.node_count + 1  # ranges lie within [0, node_count]: groups never overlap below
        order = np.argsort(inverse * span + pre[frames_start:])
        groups = inverse[order]
        if not len(groups):  # no frames at all: only processes, or nothing
            empty = np.zeros(0, dtype=np.int64)
            return FunctionIndex(frames_start, names, empty, empty, empty, empty, empty)
        reach = np.maximum.accumulate(groups * span + end[frames_start:][order])
        nested = np.concatenate(([False], reach[:-1] > groups[1:] * span + pre[frames_start:][order][1:]))
        outermost = ~nested
        return FunctionIndex(
            frames_start=frames_start,
            names=names,
            self_order=order,
            self_starts=_group_starts(groups),
            total_order=order[outermost],
            total_starts=_group_starts(groups[outermost]),
            total_names=np.unique(groups[outermost]),
        )

    def sums(self, values: Int64s, order: Int64s, starts: Int64s) -> Int64s:
        """Exact integer sums of per-node `values` (offsets from `frames_start`) per group."""
        if not len(order):
            return np.zeros(0, dtype=np.int64)
        return np.add.reduceat(values[self.frames_start :][order], starts)


def _group_starts(sorted_groups: Int64s) -> Int64s:
    if not len(sorted_groups):
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.concatenate(([True], sorted_groups[1:] != sorted_groups[:-1])))


def by_name(tree: CallsiteTree, frame_ids: Int64s, representatives: Int64s) -> NamedTree:
    """`tree` with frames merged by name: `representatives[i]` is the lowest frame id of the name of
    `frame_ids[i]` (it gives the merged frame its name and kind); every frame of the tree is listed."""
    frame_keys = np.zeros(int(frame_ids.max(initial=0)) + 1, dtype=np.int64)
    frame_keys[frame_ids] = representatives
    return NamedTree(merge([tree], frame_keys))


def frame_ids(tree: CallsiteTree) -> list[int]:
    """Every frame id the tree holds (its keys below the process level)."""
    if tree.levels <= PROCESS_LEVEL + 1:
        return []
    below: Int32s = tree.key[int(tree.level_starts[PROCESS_LEVEL + 1]) :]
    return [int(f) for f in np.unique(below).tolist()]


def _preorder(tree: CallsiteTree) -> tuple[Int64s, Int64s]:
    """Each node's depth-first (preorder) number and the end of its subtree's range, a level at a
    time: a child comes right after its parent and the subtrees of its earlier siblings."""
    size = np.ones((tree.node_count, 1), dtype=np.int64)
    tree.sum_up(size)
    sizes = size[:, 0]
    pre = np.zeros(tree.node_count, dtype=np.int64)
    for level in range(PROCESS_LEVEL, tree.levels):
        lo, hi = int(tree.level_starts[level]), int(tree.level_starts[level + 1])
        starts, parents = tree.groups(level)
        run_lengths = np.diff(np.append(starts, hi - lo))
        run_of = np.repeat(np.arange(len(starts)), run_lengths)
        before = np.cumsum(sizes[lo:hi]) - sizes[lo:hi]  # sizes of earlier nodes of the level
        pre[lo:hi] = pre[parents][run_of] + 1 + before - before[starts][run_of]
    return pre, pre + sizes


@dataclass(frozen=True, slots=True, eq=False)
class WeighedDiff:
    """Both sides weighed on one named tree, with what every zoom of it shares."""

    named: NamedTree
    a: WeighedTree
    b: WeighedTree
    normalize: Normalize
    scale: float
    function_frames: Int64s
    """Every function on some stack of either side (weightless ones too), as its frame id."""
    function_weights: Int64s
    """Per function: self A, self B, total A, total B."""

    def top_functions(self, top: int, lookup: FrameLookup) -> list[FunctionDelta]:
        """The `top` functions by total change and the `top` by self change (as `top_functions`
        ranks them), largest total change first. Ranked on arrays; only candidates are named,
        every function tied with the last one kept included, so the name tie-break stays exact."""
        table = self.function_weights.astype(np.float64)
        scale = self.scale
        chosen = np.zeros(len(table), dtype=bool)
        for a, b in ((0, 1), (2, 3)):
            change = np.abs(table[:, b] - table[:, a] * scale)
            chosen |= _at_least_kth(change, top)
        picked = np.flatnonzero(chosen)
        frames = lookup(self.function_frames[picked].tolist())
        rows = self.function_weights[picked].tolist()
        deltas = [
            FunctionDelta(frames[frame].name, self_a, self_b, total_a, total_b, scale)
            for frame, (self_a, self_b, total_a, total_b) in zip(
                self.function_frames[picked].tolist(), rows, strict=True
            )
        ]
        by_total = top_functions(deltas, top, "total")
        named = {f.name for f in by_total}
        by_self = [f for f in top_functions(deltas, top, "self") if f.name not in named]
        return top_functions(by_total + by_self, len(by_total) + len(by_self), "total")


def _at_least_kth(values: NDArray[np.float64], k: int) -> NDArray[np.bool_]:
    """The `k` largest values, and every value equal to the smallest of them."""
    if k <= 0:
        return np.zeros(len(values), dtype=bool)
    if len(values) <= k:
        return np.ones(len(values), dtype=bool)
    kth = np.partition(values, len(values) - k)[len(values) - k]
    chosen: NDArray[np.bool_] = values >= kth
    return chosen


def weigh_sides(
    named: NamedTree,
    leaves_a: Int32s,
    weights_a: tuple[Int64s, Int64s],
    leaves_b: Int32s,
    weights_b: tuple[Int64s, Int64s],
    normalize: Normalize,
) -> WeighedDiff:
    """Weigh A and B (each `(weights, samples)` per leaf) and tabulate every function's weights."""
    a = weigh(named.tree, leaves_a, *weights_a)
    b = weigh(named.tree, leaves_b, *weights_b)
    scale = scale_for(int(a.value[ROOT]), int(b.value[ROOT]), normalize)
    frames, weights = _function_table(named, a, b)
    return WeighedDiff(named, a, b, normalize, scale, frames, weights)


def _function_table(named: NamedTree, a: WeighedTree, b: WeighedTree) -> tuple[Int64s, Int64s]:
    """Per function on some stack of either side: its frame id, and its self A, self B, total A
    and total B (self: where stacks end; total: outermost calls, so recursion counts once)."""
    index = named.functions()
    count = len(index.names)
    table = np.zeros((count, 4), dtype=np.int64)
    self_groups = np.arange(count)  # every function has frame nodes, so every group is there
    for column, weighed in enumerate((a, b)):
        table[self_groups, column] = index.sums(
            weighed.columns[:, SELF_VALUE], index.self_order, index.self_starts
        )
        totals = index.sums(weighed.columns[:, VALUE], index.total_order, index.total_starts)
        table[index.total_names, 2 + column] = totals
    present = (a.samples > 0) | (b.samples > 0)
    seen = np.flatnonzero(index.sums(present.astype(np.int64), index.self_order, index.self_starts) > 0)
    return index.names[seen], table[seen]


def find(diff: WeighedDiff, path: Sequence[str], lookup: FrameLookup) -> int | None:
    """The node reached by following names from the root (process first); None if on neither side."""
    tree = diff.named.tree
    present = (diff.a.samples > 0) | (diff.b.samples > 0)
    node = ROOT
    for depth, name in enumerate(path, start=1):
        first, end = tree.children(node)
        keys = tree.key[first:end].tolist()
        if depth == PROCESS_LEVEL:
            labels = [tree.comms[k] for k in keys]
        else:
            frames = lookup(keys)
            labels = [frames[k].name for k in keys]
        match = next(
            (first + i for i, label in enumerate(labels) if label == name and present[first + i]), -1
        )
        if match < 0:
            return None
        node = match
    return node


def result(
    diff: WeighedDiff,
    top: int,
    max_nodes: int,
    max_depth: int | None,
    lookup: FrameLookup,
    top_count: int = 50,
) -> DiffResult:
    """The diff below `top`, pruned to `max_nodes` nodes at most `max_depth` levels deep, with the
    `top_count` functions that changed most by total and by self (`DiffResult.function_count`
    counts them all)."""
    limit = None if max_depth is None else max(max_depth, 1)
    with gc_paused():
        return _result(diff, top, max(max_nodes, 1), limit, lookup, top_count)


def _result(
    diff: WeighedDiff, top: int, max_nodes: int, limit: int | None, lookup: FrameLookup, top_count: int
) -> DiffResult:
    tree, scale = diff.named.tree, diff.scale
    ca, cb = diff.a.columns, diff.b.columns
    rank = (
        np.maximum(ca[:, VALUE] * scale, cb[:, VALUE])
        if scale != 1.0
        else np.maximum(ca[:, VALUE], cb[:, VALUE])
    )
    present = (ca[:, SAMPLES] > 0) | (cb[:, SAMPLES] > 0)
    kept, largest_left_out = heaviest(tree, top, max_nodes, limit, rank, present)
    levels, depths, above = kept_layout(tree, kept)
    size = _present_size(diff)
    rows_a, rows_b = ca[kept], cb[kept]
    shown = np.zeros((len(kept), 2), dtype=np.int64)
    np.add.at(shown, above[1:], np.stack([rows_a[1:, VALUE], rows_b[1:, VALUE]], axis=1))
    below = np.stack(
        [rows_a[:, VALUE] - rows_a[:, SELF_VALUE], rows_b[:, VALUE] - rows_b[:, SELF_VALUE]], axis=1
    )
    at_limit = depths >= limit if limit is not None else np.zeros(len(kept), dtype=bool)
    deeper = at_limit & (size[kept] > 1)
    other_ab = below - shown
    other = ~at_limit & (other_ab != 0).any(axis=1)
    total_a, total_b = int(ca[ROOT, VALUE]), int(cb[ROOT, VALUE])
    per_a, per_b = 1 / (total_a or 1), 1 / (total_b or 1)
    labels = _labels(tree, kept, levels, lookup)
    outs = _nodes(labels, rows_a[:, VALUE], rows_b[:, VALUE], scale, per_a, per_b)
    link_children(outs, above)
    deeper_at = np.flatnonzero(deeper)
    folded = (size[kept[deeper_at]] - 1).tolist()
    markers = _nodes(
        [(DEEPER_NAME, "deeper")] * len(deeper_at),
        below[deeper_at, 0],
        below[deeper_at, 1],
        scale,
        per_a,
        per_b,
    )
    for i, marker, frames in zip(deeper_at.tolist(), markers, folded, strict=True):
        marker["folded_frames"] = frames
        outs[i]["children"].append(marker)
    other_at = np.flatnonzero(other)
    others = _nodes(
        [(OTHER_NAME, "other")] * len(other_at),
        other_ab[other_at, 0],
        other_ab[other_at, 1],
        scale,
        per_a,
        per_b,
    )
    for i, marker in zip(other_at.tolist(), others, strict=True):
        outs[i]["children"].append(marker)
    truncated, heights = folding_marks(above, depths, deeper | other)
    for i in np.flatnonzero(truncated).tolist():
        outs[i]["truncated"] = True
    largest = max(ca[top, VALUE] * scale, cb[top, VALUE])
    return DiffResult(
        root=outs[0],
        total_a=total_a,
        total_b=total_b,
        samples_a=int(ca[ROOT, SAMPLES]),
        samples_b=int(cb[ROOT, SAMPLES]),
        normalize=diff.normalize,
        scale=scale,
        functions=diff.top_functions(top_count, lookup),
        function_count=len(diff.function_frames),
        node_count=len(kept),
        pruned_nodes=max(int(size[top]), 1) - len(kept),  # `top` is sent even when empty
        prune_threshold=largest_left_out / largest if largest else 0.0,
        deep_nodes=int((size[kept[deeper_at]] - 1).sum()),
        height=int(heights[0]),
        tall=frozenset(id(outs[i]) for i in np.flatnonzero(heights >= TALL_LEVELS).tolist()),
    )


def _present_size(diff: WeighedDiff) -> Int64s:
    """Nodes in each subtree that either side has samples at or below."""
    present = ((diff.a.samples > 0) | (diff.b.samples > 0)).astype(np.int64)[:, None]
    diff.named.tree.sum_up(present)  # counts present nodes below and the node itself
    return present[:, 0]


def _labels(tree: CallsiteTree, kept: Int64s, levels: Int64s, lookup: FrameLookup) -> list[tuple[str, str]]:
    keys = tree.key[kept].tolist()
    frame_keys = [key for key, level in zip(keys, levels.tolist(), strict=True) if level > PROCESS_LEVEL]
    frames = lookup(frame_keys)
    labels: list[tuple[str, str]] = []
    for key, level in zip(keys, levels.tolist(), strict=True):
        if level > PROCESS_LEVEL:
            info = frames[key]
            labels.append((info.name, info.kind or "user"))
        elif level == PROCESS_LEVEL:
            labels.append((tree.comms[key], "process"))
        else:
            labels.append((ROOT_NAME, "root"))
    return labels


def _nodes(
    labels: Sequence[tuple[str, str]], xs: Int64s, ys: Int64s, scale: float, per_a: float, per_b: float
) -> list[dict[str, Any]]:
    """Diff nodes (B's weight as `value`), their deltas and share deltas computed on arrays.

    A delta is exact while nothing is scaled, else rounded to `DIGITS` places; a share delta to
    `SHARE_DIGITS` places (numpy's rounding: it may differ from `round` in the last place)."""
    deltas = (ys - xs).tolist() if scale == 1.0 else np.round(ys - xs * scale, DIGITS).tolist()
    shares = np.round(ys * per_b - xs * per_a, SHARE_DIGITS).tolist()
    return [
        {
            "name": name,
            "kind": kind,
            "value": y,
            "a": x,
            "b": y,
            "delta": delta,
            "share_delta": share,
            "children": [],
        }
        for (name, kind), x, y, delta, share in zip(
            labels, xs.tolist(), ys.tolist(), deltas, shares, strict=True
        )
    ]
