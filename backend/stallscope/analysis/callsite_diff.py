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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from stallscope.analysis import weighed_tree
from stallscope.analysis.callsites import (
    PROCESS_LEVEL,
    ROOT,
    CallsiteTree,
    Int32s,
    Int64s,
    merge,
    unique_inverse,
)
from stallscope.analysis.diff import (
    DIGITS,
    SHARE_DIGITS,
    DiffResult,
    FunctionDelta,
    Normalize,
    scale_for,
    top_functions,
)
from stallscope.analysis.flame import DEEPER_NAME, OTHER_NAME
from stallscope.analysis.tree_text import CHILDREN, TRUNCATED, assemble, json_string, layout, number_texts
from stallscope.analysis.weighed_tree import (
    SAMPLES,
    SELF_VALUE,
    VALUE,
    FrameLookup,
    Labels,
    WeighedTree,
    folding_marks,
    heaviest,
    kept_layout,
    node_labels,
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
        names, inverse = unique_inverse(tree.key[frames_start:].astype(np.int64))
        pre, end = _preorder(tree)
        span = tree.node_count + 1  # ranges lie within [0, node_count]: groups never overlap below
        order = _by_function_then_preorder(inverse, pre, frames_start)
        groups = inverse[order]
        if not len(groups):  # no frames at all: only processes, or nothing
            empty = np.zeros(0, dtype=np.int64)
            return FunctionIndex(frames_start, names, empty, empty, empty, empty, empty)
        reach = np.maximum.accumulate(groups * span + end[frames_start:][order])
        nested = np.concatenate(([False], reach[:-1] > groups[1:] * span + pre[frames_start:][order][1:]))
        outermost_groups = groups[~nested]
        total_starts = _group_starts(outermost_groups)
        return FunctionIndex(
            frames_start=frames_start,
            names=names,
            self_order=order,
            self_starts=_group_starts(groups),
            total_order=order[~nested],
            total_starts=total_starts,
            total_names=outermost_groups[total_starts],
        )

    def sums(self, values: Int64s, order: Int64s, starts: Int64s) -> Int64s:
        """Exact integer sums of per-node `values` (offsets from `frames_start`) per group."""
        if not len(order):
            return np.zeros(0, dtype=np.int64)
        return np.add.reduceat(values[self.frames_start :][order], starts)


def _by_function_then_preorder(functions: Int64s, pre: Int64s, frames_start: int) -> Int64s:
    """Frame nodes (as offsets from `frames_start`) sorted by function, then depth-first order.

    `pre` is a permutation of the tree's nodes, so listing nodes in depth-first order needs no sort;
    a stable sort by function then keeps that order within each function, and for up to 65,536
    functions numpy sorts 16-bit keys by radix (5 ms on 350,000 nodes, against 23 ms for one sort
    of a combined key)."""
    in_preorder = np.empty(len(pre), dtype=np.int64)
    in_preorder[pre] = np.arange(len(pre))
    frame_nodes = in_preorder[in_preorder >= frames_start] - frames_start
    keys = functions[frame_nodes]
    narrow = keys.astype(np.uint16) if len(functions) and int(keys.max()) < 1 << 16 else keys
    ordered: Int64s = frame_nodes[np.argsort(narrow, kind="stable")]
    return ordered


def _group_starts(sorted_groups: Int64s) -> Int64s:
    if not len(sorted_groups):
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.concatenate(([True], sorted_groups[1:] != sorted_groups[:-1])))


def by_name(tree: CallsiteTree, frame_ids: Int64s, representatives: Int64s) -> NamedTree:
    """`tree` with frames merged by name: `representatives[i]` is the lowest frame id of the name of
    `frame_ids[i]` (it gives the merged frame its name and kind); every frame of the tree is listed.

    When no two frames share a name, each frame is its own representative and the tree is its own
    merge (most captures: names repeat across kinds only)."""
    if np.array_equal(frame_ids, representatives):
        return NamedTree(tree)
    frame_keys = np.zeros(int(frame_ids.max(initial=0)) + 1, dtype=np.int64)
    frame_keys[frame_ids] = representatives
    return NamedTree(merge([tree], frame_keys))


INDEX_ARRAYS = ("names", "self_order", "self_starts", "total_order", "total_starts", "total_names")


def named_parts(tree: CallsiteTree, frame_ids: Int64s, representatives: Int64s) -> dict[str, Int32s]:
    """What `named_from_parts` needs to make the named tree of one capture's `tree` and its function
    index without asking the database or sorting: stored with the tree after its parse, so the first
    diff of a capture's ranges starts from them (names merge within the capture the same way then)."""
    named = by_name(tree, frame_ids, representatives)
    index = named.functions()
    wide = {"frame_ids": frame_ids, "representatives": representatives, "frames_start": [index.frames_start]}
    wide.update({name: getattr(index, name) for name in INDEX_ARRAYS})
    return {name: np.asarray(array).astype(np.int32) for name, array in wide.items()}  # ids and offsets fit


def named_from_parts(tree: CallsiteTree, parts: Mapping[str, NDArray[Any]]) -> NamedTree | None:
    """The named tree and function index `named_parts` stored, or None if they were not stored."""
    if "representatives" not in parts:
        return None
    named = by_name(tree, parts["frame_ids"].astype(np.int64), parts["representatives"].astype(np.int64))
    arrays = {name: parts[name].astype(np.int64) for name in INDEX_ARRAYS}
    named._functions.append(FunctionIndex(frames_start=int(parts["frames_start"][0]), **arrays))
    return named


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
    a, b = weighed_tree.weigh_views(named.tree, [(leaves_a, *weights_a), (leaves_b, *weights_b)], sizes=False)
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
    with gc_paused():  # a tuple per node and field: no cycles, and collections would scan them all
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
    kinds = [json_string(kind or "user") for kind in labels.kinds]  # as `analysis.diff` names kinds
    truncated, heights = folding_marks(above, depths, deeper | other)
    tree_layout = layout(above, depths, labels.name_ids, labels.names)
    ends = [f"{TRUNCATED}{CHILDREN}" if mark else CHILDREN for mark in truncated.tolist()]
    numbers = (rows_a[:, VALUE], rows_b[:, VALUE], scale, per_a, per_b)
    opens = _diff_nodes(tree_layout.starts, [kinds[i] for i in labels.kind_ids.tolist()], *numbers, ends)
    deeper_at, other_at = np.flatnonzero(deeper), np.flatnonzero(other)

    def folded_children(
        name: str, kind: str, at: Int64s, xs: Int64s, ys: Int64s, ends: list[str]
    ) -> dict[int, str]:
        """The "(deeper)" or "(other)" child of each node of `at`, by node."""
        starts, kinds = [f'{{"name":{json_string(name)}'] * len(at), [json_string(kind)] * len(at)
        texts = _diff_nodes(starts, kinds, xs, ys, scale, per_a, per_b, ends)
        return dict(zip(at.tolist(), texts, strict=True))

    folded_frames = (size[kept[deeper_at]] - 1).tolist()
    deeper_ends = [f',"folded_frames":{frames},"children":[]}}' for frames in folded_frames]
    other_ends = [',"children":[]}'] * len(other_at)
    folded_text = folded_children(
        DEEPER_NAME, "deeper", deeper_at, below[deeper_at, 0], below[deeper_at, 1], deeper_ends
    ) | folded_children(
        OTHER_NAME, "other", other_at, other_ab[other_at, 0], other_ab[other_at, 1], other_ends
    )
    text = assemble(tree_layout, opens, folded_text)
    largest = max(ca[top, VALUE] * scale, cb[top, VALUE])
    return DiffResult(
        tree=None,
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
        text=text,
    )


def _present_size(diff: WeighedDiff) -> Int64s:
    """Nodes in each subtree that either side has samples at or below."""
    present = ((diff.a.samples > 0) | (diff.b.samples > 0)).astype(np.int64)[:, None]
    diff.named.tree.sum_up(present)  # counts present nodes below and the node itself
    return present[:, 0]


def _labels(tree: CallsiteTree, kept: Int64s, levels: Int64s, lookup: FrameLookup) -> Labels:
    frame_keys = tree.key[kept[levels > PROCESS_LEVEL]]
    return node_labels(tree, kept, levels, lookup(unique_inverse(frame_keys.astype(np.int64))[0].tolist()))


def _diff_nodes(
    starts: Sequence[str],
    kind_texts: Sequence[str],
    xs: Int64s,
    ys: Int64s,
    scale: float,
    per_a: float,
    per_b: float,
    ends: Sequence[str],
) -> list[str]:
    """Diff nodes' JSON texts, each written in one piece: `starts[i]` (its name), its kind (JSON
    text), B's weight as `value`, A's and B's weights, delta and share delta, then `ends[i]`.

    A delta is exact while nothing is scaled, else rounded to `DIGITS` places; a share delta to
    `SHARE_DIGITS` places (numpy's rounding: it may differ from `round` in the last place).
    """
    deltas = ys - xs if scale == 1.0 else np.round(ys - xs * scale, DIGITS)
    shares = np.round(ys * per_b - xs * per_a, SHARE_DIGITS)
    return [
        f'{start},"kind":{kind},"value":{y},"a":{x},"b":{y},"delta":{delta},"share_delta":{share}{end}'
        for start, kind, x, y, delta, share, end in zip(
            starts,
            kind_texts,
            number_texts(xs),
            number_texts(ys),
            number_texts(deltas),
            number_texts(shares),
            ends,
            strict=True,
        )
    ]
