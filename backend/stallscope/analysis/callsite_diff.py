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

from stallscope.analysis.callsites import (
    PROCESS_LEVEL,
    ROOT,
    TREE_ARRAYS,
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
    FrameLookup,
    Labels,
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
    """The frame nodes that are a stack's outermost call of their function, grouped by function, so
    a function's total (the sum of those: recursion counts once) is one `reduceat` away.

    `total_order` lists those nodes (as offsets from the first frame node) grouped by function,
    `total_starts` where each function's group begins. `names` holds each function's frame id,
    sorted: a node's function is where its key falls in them. 32-bit, as stored with the tree
    (ids and offsets fit), so a first diff reads them without widening a copy.
    """

    frames_start: int
    names: Int32s
    total_order: Int32s
    total_starts: Int32s
    total_names: Int32s
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
            empty = np.zeros(0, dtype=np.int32)
            return FunctionIndex(frames_start, names.astype(np.int32), empty, empty, empty)
        reach = np.maximum.accumulate(groups * span + end[frames_start:][order])
        nested = np.concatenate(([False], reach[:-1] > groups[1:] * span + pre[frames_start:][order][1:]))
        outermost_groups = groups[~nested]
        total_starts = _group_starts(outermost_groups)
        return FunctionIndex(
            frames_start=frames_start,
            names=names.astype(np.int32),
            total_order=order[~nested].astype(np.int32),
            total_starts=total_starts.astype(np.int32),
            total_names=outermost_groups[total_starts].astype(np.int32),
        )


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


INDEX_ARRAYS = ("names", "total_order", "total_starts", "total_names")
"""What `named_parts` stores of a `FunctionIndex` (trees stored before stored two more arrays, which
are ignored)."""


NAMED_TREE = "named_"
"""Prefix of the merged tree's own arrays among the parts, stored when names merged any frames."""


def named_parts(tree: CallsiteTree, frame_ids: Int64s, representatives: Int64s) -> dict[str, NDArray[Any]]:
    """What `named_from_parts` needs to make the named tree of one capture's `tree` and its function
    index without asking the database or sorting: stored with the tree after its parse, so the first
    diff of a capture's ranges starts from them (names merge within the capture the same way then).

    When names merge frames, the merged tree itself is kept too (its arrays, about 3 MB for
    350,000 nodes): merging again cost a first diff 10-45 ms of the interpreter's time while both
    sides were being read."""
    named = by_name(tree, frame_ids, representatives)
    index = named.functions()
    wide = {"frame_ids": frame_ids, "representatives": representatives, "frames_start": [index.frames_start]}
    wide.update({name: getattr(index, name) for name in INDEX_ARRAYS})
    parts: dict[str, NDArray[Any]] = {
        name: np.asarray(array).astype(np.int32)
        for name, array in wide.items()  # ids and offsets fit
    }
    if named.tree is not tree and named.tree.comms == tree.comms:
        parts.update({NAMED_TREE + name: getattr(named.tree, name) for name in TREE_ARRAYS})
    return parts


def named_from_parts(tree: CallsiteTree, parts: Mapping[str, NDArray[Any]]) -> NamedTree | None:
    """The named tree and function index `named_parts` stored, or None if they were not stored.

    The arrays are used where they lie (read-only views of the stored bytes)."""
    if "representatives" not in parts:
        return None
    named = _stored_named_tree(tree, parts) or by_name(
        tree, parts["frame_ids"].astype(np.int64), parts["representatives"].astype(np.int64)
    )
    index = {name: parts[name].astype(np.int32, copy=False) for name in INDEX_ARRAYS}
    named._functions.append(FunctionIndex(frames_start=int(parts["frames_start"][0]), **index))
    return named


def _stored_named_tree(tree: CallsiteTree, parts: Mapping[str, NDArray[Any]]) -> NamedTree | None:
    """The merged tree `named_parts` kept, if names merged frames (and it was stored with them)."""
    if NAMED_TREE + "parent" not in parts:
        return None
    merged = CallsiteTree(
        parent=parts[NAMED_TREE + "parent"],
        key=parts[NAMED_TREE + "key"],
        level_starts=parts[NAMED_TREE + "level_starts"],
        comms=tree.comms,
        pair_keys=parts[NAMED_TREE + "pair_keys"],
        pair_leaf=parts[NAMED_TREE + "pair_leaf"],
    )
    return NamedTree(merged)


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


A_VALUE, B_VALUE, BOTH_SAMPLES = range(3)
"""Columns of `WeighedDiff.inclusive`: A's and B's weight at or below each node, and both sides'
samples there (a node is drawn when either side has any)."""


@dataclass(frozen=True, slots=True)
class Side:
    """One side's rows: the named-tree node each ends at, its weight and its samples."""

    leaves: Int32s
    weights: Int64s
    samples: Int64s

    def own_weights(self, positions: Int32s, count: int) -> Int64s:
        """The weight of the rows ending at each of `count` nodes, `positions` giving each tree node's
        place among them (-1 for others): a node's self weight, found from the rows (tens of
        thousands) rather than kept for every node of the tree."""
        own = np.zeros(count, dtype=np.int64)
        at = positions[self.leaves]
        ends_here = at >= 0
        np.add.at(own, at[ends_here], self.weights[ends_here])
        return own


@dataclass(frozen=True, slots=True, eq=False)
class WeighedDiff:
    """Both sides weighed on one named tree, with what every zoom of it shares.

    Per node only what every view reads is kept, in one array summed up the tree in one pass
    (`inclusive`); self weights come from the sides' rows when a view needs them. For a
    350,000-node tree that is 8.4 MB, where two full weighed trees took 22 MB: a first diff in a new
    process also pays for every page it touches the first time."""

    named: NamedTree
    inclusive: Int64s
    sides: tuple[Side, Side]
    normalize: Normalize
    scale: float
    function_frames: Int32s
    """Every function on some stack of either side (weightless ones too), as its frame id."""
    function_weights: Int64s
    """Per function: self A, self B, total A, total B."""
    _sizes: list[Int64s] = field(default_factory=list, repr=False)

    @property
    def present(self) -> NDArray[np.bool_]:
        """Nodes either side has samples at or below."""
        present: NDArray[np.bool_] = self.inclusive[:, BOTH_SAMPLES] > 0
        return present

    def sizes(self) -> Int64s:
        """Present nodes in each subtree, the node itself included: computed once, and only when a
        view folds nodes at its depth budget (their "(deeper)" child says how many it hides)."""
        if not self._sizes:
            size = self.present.astype(np.int64)[:, None]
            self.named.tree.sum_up(size)
            self._sizes.append(size[:, 0])
        return self._sizes[0]

    def present_below(self, node: int) -> int:
        """Present nodes in `node`'s subtree, itself included (one slice per level, no full sum)."""
        column = self.inclusive[:, BOTH_SAMPLES]
        return sum(int(np.count_nonzero(column[lo:hi])) for lo, hi in self.named.tree.subtree_runs(node))

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
    tree = named.tree
    sides = (Side(leaves_a, *weights_a), Side(leaves_b, *weights_b))
    inclusive = np.zeros((tree.node_count, 3), dtype=np.int64)
    for column, side in zip((A_VALUE, B_VALUE), sides, strict=True):
        np.add.at(inclusive[:, column], side.leaves, side.weights)
        np.add.at(inclusive[:, BOTH_SAMPLES], side.leaves, side.samples)
    tree.sum_up(inclusive)
    scale = scale_for(int(inclusive[ROOT, A_VALUE]), int(inclusive[ROOT, B_VALUE]), normalize)
    frames, weights = _function_table(named, inclusive, sides)
    return WeighedDiff(named, inclusive, sides, normalize, scale, frames, weights)


def _function_table(named: NamedTree, inclusive: Int64s, sides: tuple[Side, Side]) -> tuple[Int32s, Int64s]:
    """Per function on some stack of either side: its frame id, and its self A, self B, total A
    and total B (self: where stacks end; total: outermost calls, so recursion counts once).

    A function is on a stack with samples exactly when one of its outermost calls has samples at or
    below it, so one gather of the outermost calls' rows gives both totals and which functions are
    there."""
    index = named.functions()
    table = np.zeros((len(index.names), 4), dtype=np.int64)
    if not len(index.total_order):
        return index.names[:0], table[:0]
    for column, side in enumerate(sides):
        in_frames = side.leaves >= index.frames_start  # a stack of no frames ends at its process
        functions = np.searchsorted(index.names, named.tree.key[side.leaves[in_frames]])
        np.add.at(table[:, column], functions, side.weights[in_frames])
    outermost = inclusive[index.frames_start :][index.total_order]
    totals = np.add.reduceat(outermost, index.total_starts, axis=0)
    table[index.total_names, 2:] = totals[:, [A_VALUE, B_VALUE]]
    on_stacks = np.zeros(len(index.names), dtype=bool)
    on_stacks[index.total_names[totals[:, BOTH_SAMPLES] > 0]] = True
    seen = np.flatnonzero(on_stacks)
    return index.names[seen], table[seen]


def find(diff: WeighedDiff, path: Sequence[str], lookup: FrameLookup) -> int | None:
    """The node reached by following names from the root (process first); None if on neither side."""
    tree = diff.named.tree
    samples = diff.inclusive[:, BOTH_SAMPLES]
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
            (first + i for i, label in enumerate(labels) if label == name and samples[first + i] > 0), -1
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
    tree, scale, inclusive = diff.named.tree, diff.scale, diff.inclusive
    a, b = inclusive[:, A_VALUE], inclusive[:, B_VALUE]
    rank = np.maximum(a * scale, b) if scale != 1.0 else np.maximum(a, b)
    kept, largest_left_out = heaviest(tree, top, max_nodes, limit, rank, diff.present)
    del rank
    levels, depths, above = kept_layout(tree, kept)
    rows = inclusive[kept, A_VALUE : B_VALUE + 1]
    shown = np.zeros((len(kept), 2), dtype=np.int64)
    np.add.at(shown, above[1:], rows[1:])
    positions = np.full(tree.node_count, -1, dtype=np.int32)
    positions[kept] = np.arange(len(kept), dtype=np.int32)
    below = rows - np.stack([side.own_weights(positions, len(kept)) for side in diff.sides], axis=1)
    del positions
    at_limit = depths >= limit if limit is not None else np.zeros(len(kept), dtype=bool)
    sizes = diff.sizes() if at_limit.any() else None
    deeper = at_limit & (sizes[kept] > 1) if sizes is not None else at_limit
    other_ab = below - shown
    other = ~at_limit & (other_ab != 0).any(axis=1)
    total_a, total_b = int(inclusive[ROOT, A_VALUE]), int(inclusive[ROOT, B_VALUE])
    per_a, per_b = 1 / (total_a or 1), 1 / (total_b or 1)
    labels = _labels(tree, kept, levels, lookup)
    kinds = [json_string(kind or "user") for kind in labels.kinds]  # as `analysis.diff` names kinds
    truncated, heights = folding_marks(above, depths, deeper | other)
    tree_layout = layout(above, depths, labels.name_ids, labels.names)
    ends = [f"{TRUNCATED}{CHILDREN}" if mark else CHILDREN for mark in truncated.tolist()]
    numbers = (rows[:, 0], rows[:, 1], scale, per_a, per_b)
    opens = _diff_nodes(tree_layout.starts, [kinds[i] for i in labels.kind_ids.tolist()], *numbers, ends)
    deeper_at, other_at = np.flatnonzero(deeper), np.flatnonzero(other)

    def folded_children(
        name: str, kind: str, at: Int64s, xs: Int64s, ys: Int64s, ends: list[str]
    ) -> dict[int, str]:
        """The "(deeper)" or "(other)" child of each node of `at`, by node."""
        starts, kinds = [f'{{"name":{json_string(name)}'] * len(at), [json_string(kind)] * len(at)
        texts = _diff_nodes(starts, kinds, xs, ys, scale, per_a, per_b, ends)
        return dict(zip(at.tolist(), texts, strict=True))

    folded_frames = [] if sizes is None else (sizes[kept[deeper_at]] - 1).tolist()
    deeper_ends = [f',"folded_frames":{frames},"children":[]}}' for frames in folded_frames]
    other_ends = [',"children":[]}'] * len(other_at)
    folded_text = folded_children(
        DEEPER_NAME, "deeper", deeper_at, below[deeper_at, 0], below[deeper_at, 1], deeper_ends
    ) | folded_children(
        OTHER_NAME, "other", other_at, other_ab[other_at, 0], other_ab[other_at, 1], other_ends
    )
    text = assemble(tree_layout, opens, folded_text)
    largest = max(inclusive[top, A_VALUE] * scale, inclusive[top, B_VALUE])
    return DiffResult(
        tree=None,
        total_a=total_a,
        total_b=total_b,
        samples_a=int(diff.sides[0].samples.sum()),
        samples_b=int(diff.sides[1].samples.sum()),
        normalize=diff.normalize,
        scale=scale,
        functions=diff.top_functions(top_count, lookup),
        function_count=len(diff.function_frames),
        node_count=len(kept),
        pruned_nodes=max(diff.present_below(top), 1) - len(kept),  # `top` is sent even when empty
        prune_threshold=largest_left_out / largest if largest else 0.0,
        deep_nodes=sum(folded_frames),
        height=int(heights[0]),
        text=text,
    )


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
