"""Differential flame graphs: profile B against profile A, frame by frame and function by function.

Both sides' stacks are merged by frame name into one tree whose nodes carry both weights, with the
process name as the first level, as in the flame graph (same rows, same frames, same "(other)"
folding; see `analysis.flame`).

Normalisation. Two profiles rarely have the same total: a busier host, a longer range, a different
sampling rate. With `normalize="total"` A's weights are multiplied by `scale` = B's total / A's total
before subtracting, so a delta says "this frame's *share* of the profile changed", in B's units: a
frame at 25% of A and 50% of B grows by a quarter of B's total. With `normalize="none"` raw weights
are subtracted, which is right when both sides cover comparable amounts of time. When one side is
empty there is no ratio, and raw weights are compared, so an emptied profile still shows all it lost.

Everywhere (tree nodes and function rows) `a` and `b` are each side's own weights and a delta is
`b - a * scale`; each node also carries its share delta (B's share minus A's), which never depends
on the normalisation.

Why not two `build_flame_tree` trees merged afterwards: real stacks are deep (perf keeps 127
frames), a 10-second capture already makes ~300k nodes per side, and two object trees plus a merge
cost several times the flame graph's own time. One trie in flat lists, keyed by interned name ids,
holds both sides in a single pass.

Depth. A diff can be pruned to `max_depth` levels below the frame shown, as the flame graph is (see
`analysis.flame`): below it a node's children are folded into one "(deeper)" child that keeps their
weights. Nothing here recurses, so a 100,000-frame stack costs its size and no more.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import ge, itemgetter, lt, mul
from typing import Any, Literal

from stallscope.analysis.flame import (
    DEEPER_NAME,
    OTHER_NAME,
    ROOT_NAME,
    FrameInfo,
    StackWeight,
    tree_as_dicts,
)
from stallscope.kit.gc import gc_paused

Normalize = Literal["total", "none"]
FunctionSort = Literal["total", "self"]

DEFAULT_MAX_NODES = 50_000
"""The flame graph's default node budget: a diff is drawn by the same chart."""

DIGITS = 3
"""Scaled deltas are fractional; a thousandth of a sample (or µs) is below anything people read."""

SHARE_DIGITS = 6
"""Share deltas to a millionth of the profile: finer than one pixel of any chart."""


@dataclass(frozen=True, slots=True)
class WeightedStack:
    """A process name, then frame names root first, and the weight they carry (period, samples, µs)."""

    frames: tuple[str, ...]
    weight: int
    samples: int = 1


@dataclass(frozen=True, slots=True)
class FunctionDelta:
    """One function's own weights on both sides; deltas compare B with A scaled by `scale`.

    `total` counts a function once per stack, however often it recurses in it: the weight of the
    stacks it is on, which is what "time spent in or under f" means.
    """

    name: str
    self_a: int
    self_b: int
    total_a: int
    total_b: int
    scale: float = 1.0

    @property
    def self_delta(self) -> float:
        return self.self_b - self.self_a * self.scale

    @property
    def total_delta(self) -> float:
        return self.total_b - self.total_a * self.scale

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "self_a": self.self_a,
            "self_b": self.self_b,
            "self_delta": _num(self.self_delta),
            "total_a": self.total_a,
            "total_b": self.total_b,
            "total_delta": _num(self.total_delta),
        }


@dataclass(frozen=True, slots=True)
class DiffResult:
    tree: dict[str, Any] | None
    """d3-flame-graph JSON (`value` is B's weight) with `a`, `b`, `delta`, `share_delta` per node, or
    None when it was written as `text`."""
    total_a: int
    total_b: int
    samples_a: int
    samples_b: int
    normalize: Normalize
    scale: float
    """What A's weights are multiplied by in every delta (1 without normalisation or with an empty side)."""
    functions: list[FunctionDelta]
    """Every function, largest total change first."""
    node_count: int
    pruned_nodes: int
    prune_threshold: float
    """Largest folded-away node as a fraction of the larger side's total (0 if nothing was pruned)."""
    deep_nodes: int = 0
    """Of `pruned_nodes`, those below the depth budget (folded into "(deeper)" children)."""
    height: int = 0
    """Levels below `root` in the answer, folded children included."""
    function_count: int | None = None
    """Functions in the table when `functions` holds only the most changed (None: all are there)."""
    text: str | None = None
    """The tree as JSON text, when it was written from arrays (`analysis/tree_text.py`)."""

    @property
    def root(self) -> dict[str, Any]:
        """The tree as dicts, parsed from `text` when it was written as text."""
        return tree_as_dicts(self.tree, self.text)


def scale_for(total_a: int, total_b: int, normalize: Normalize) -> float:
    """A's multiplier: B's total over A's, or 1 when not normalising or a side is empty."""
    if normalize == "total" and total_a > 0 and total_b > 0:
        return total_b / total_a
    return 1.0


def top_functions(table: Iterable[FunctionDelta], n: int, by: FunctionSort) -> list[FunctionDelta]:
    """The `n` functions whose `by` weight changed most, either way; ties: the heavier, then by name."""

    def key(f: FunctionDelta) -> tuple[float, float, str]:
        if by == "self":
            return (-abs(f.self_delta), -max(f.self_a * f.scale, f.self_b), f.name)
        return (-abs(f.total_delta), -max(f.total_a * f.scale, f.total_b), f.name)

    return heapq.nsmallest(max(n, 0), table, key=key)


class _Names:
    """Frame and process names as small ints: the trie and tables work on ids, names come back at the end."""

    __slots__ = ("ids", "kinds", "names")

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.names: list[str] = []
        self.kinds: list[str | None] = []

    def id(self, name: str, kind: str | None) -> int:
        found = self.ids.get(name)
        if found is None:
            found = self.ids[name] = len(self.names)
            self.names.append(name)
            self.kinds.append(kind)
        elif kind is not None and self.kinds[found] is None:
            self.kinds[found] = kind
        return found


Path = Sequence[int]
"""Name ids: the process, then frames root first."""


class _Side:
    """One side's weights as they are added: per function (self, total) and overall."""

    __slots__ = ("samples", "self_weights", "total", "total_weights")

    def __init__(self) -> None:
        self.total = 0
        self.samples = 0
        self.self_weights: dict[int, int] = {}
        self.total_weights: dict[int, int] = {}


Row = tuple[Path, int, int, int]
"""(path, side: 0 for A and 1 for B, weight, samples)"""


class _Trie:
    """Both sides merged by name: node i's parent, name id and raw weights; node 0 is the root.

    Rows are sorted by path first, so rows sharing a prefix are neighbours: each row keeps the
    nodes its predecessor shares with it and creates the rest, without looking anything up. Weights
    are added at each row's last node, then summed up in one reverse pass (children are created
    after their parents), as `build_flame_tree` does.
    """

    def __init__(self) -> None:
        self.parent = [-1]
        self.name = [-1]
        self.a = [0]
        self.b = [0]
        self.depth = [0]
        """Levels below the root; a node's depth is its index in the chain of the row creating it."""
        self.size: list[int] = []
        """Nodes in each subtree, itself included (filled by `sum_up`). Nodes are numbered in
        preorder, so node i's subtree is exactly the indexes i to i + size[i] - 1."""

    def build(self, rows: list[Row], sides: tuple[_Side, _Side]) -> None:
        parent, name, a, b, depth = self.parent, self.name, self.a, self.b, self.depth
        weights = (a, b)
        rows.sort()
        chain = [0]
        previous: Path = ()
        for path, side_index, weight, samples in rows:
            common = 0
            for x, y in zip(path, previous, strict=False):
                if x != y:
                    break
                common += 1
            del chain[common + 1 :]
            node = chain[common]
            new = len(path) - common
            if new:  # a chain of new nodes, each the parent of the next: built in bulk
                first = len(name)
                parent.append(node)
                parent.extend(range(first, first + new - 1))
                name.extend(path[common:])
                a.extend(repeat(0, new))
                b.extend(repeat(0, new))
                depth.extend(range(common + 1, common + new + 1))
                chain.extend(range(first, first + new))
                node = first + new - 1
            previous = path
            weights[side_index][node] += weight
            side = sides[side_index]
            side.total += weight
            side.samples += samples
            if len(path) > 1:  # the process level is not a function
                leaf = path[-1]
                side.self_weights[leaf] = side.self_weights.get(leaf, 0) + weight
                totals = side.total_weights
                for name_id in set(path[1:]):
                    totals[name_id] = totals.get(name_id, 0) + weight

    def sum_up(self) -> tuple[list[int], list[int]]:
        """Make weights inclusive and count subtree sizes; returns the self weights they were."""
        parent, a, b = self.parent, self.a, self.b
        self_a, self_b = a.copy(), b.copy()
        size = self.size = [1] * len(parent)
        for i in range(len(parent) - 1, 0, -1):
            p = parent[i]
            a[p] += a[i]
            b[p] += b[i]
            size[p] += size[i]
        return self_a, self_b

    def child(self, node: int, name_id: int) -> int | None:
        """Node's child with this name, stepping over whole subtrees (they are contiguous)."""
        end = node + self.size[node]
        i = node + 1
        while i < end:
            if self.name[i] == name_id:
                return i
            i += self.size[i]
        return None


class DiffTree:
    """Both sides merged, before pruning: kept (cached) so a zoom can be pruned from any frame with
    a fresh node budget, as the flame graph's focused subtrees are."""

    __slots__ = ("functions", "names", "normalize", "scale", "self_a", "self_b", "side_a", "side_b", "trie")

    def __init__(self, names: _Names, rows: list[Row], normalize: Normalize) -> None:
        self.names = names
        self.trie, self.side_a, self.side_b = _Trie(), _Side(), _Side()
        self.trie.build(rows, (self.side_a, self.side_b))
        self.self_a, self.self_b = self.trie.sum_up()
        self.normalize: Normalize = normalize
        self.scale = scale_for(self.side_a.total, self.side_b.total, normalize)
        self.functions = _function_table(self.side_a, self.side_b, names, self.scale)

    def find(self, path: Sequence[str]) -> int | None:
        """The node reached by following names from the root (process first); None if absent."""
        node = 0
        for name in path:
            name_id = self.names.ids.get(name)
            found = None if name_id is None else self.trie.child(node, name_id)
            if found is None:
                return None
            node = found
        return node

    def result(
        self, focus: Sequence[str] = (), max_nodes: int = DEFAULT_MAX_NODES, max_depth: int | None = None
    ) -> DiffResult | None:
        """The diff pruned to `max_nodes`, at most `max_depth` levels deep (no limit for None), below
        the frame at `focus` (the whole tree for none); None when that frame is in neither side."""
        node = self.find(focus)
        if node is None:
            return None
        with gc_paused():
            pruned = _prune(self, node, max_nodes, max_depth)
        return DiffResult(
            tree=pruned.root,
            total_a=self.side_a.total,
            total_b=self.side_b.total,
            samples_a=self.side_a.samples,
            samples_b=self.side_b.samples,
            normalize=self.normalize,
            scale=self.scale,
            functions=self.functions,
            node_count=pruned.node_count,
            pruned_nodes=pruned.pruned_nodes,
            prune_threshold=pruned.prune_threshold,
            deep_nodes=pruned.deep_nodes,
            height=pruned.height,
        )


def diff_stacks(
    a: Iterable[WeightedStack],
    b: Iterable[WeightedStack],
    kinds: Mapping[str, str] | None = None,
    normalize: Normalize = "total",
    max_nodes: int = DEFAULT_MAX_NODES,
    max_depth: int | None = None,
) -> DiffResult:
    """B against A from name stacks; `kinds` (name -> frame kind) only colours, unknown names are `user`."""
    return _whole(diff_tree_of_stacks(a, b, kinds, normalize), max_nodes, max_depth)


def diff_tree_of_stacks(
    a: Iterable[WeightedStack],
    b: Iterable[WeightedStack],
    kinds: Mapping[str, str] | None = None,
    normalize: Normalize = "total",
) -> DiffTree:
    """The merged tree of name stacks, to prune from any frame."""
    names = _Names()
    kinds = kinds or {}

    def rows(stacks: Iterable[WeightedStack], side: int) -> Iterator[Row]:
        for stack in stacks:
            if stack.frames:
                comm, *frames = stack.frames
                path = [names.id(comm, None), *(names.id(f, kinds.get(f)) for f in frames)]
                yield path, side, stack.weight, stack.samples

    with gc_paused():
        return DiffTree(names, [*rows(a, 0), *rows(b, 1)], normalize)


def diff_tree(
    a: Iterable[StackWeight],
    b: Iterable[StackWeight],
    frames: Mapping[int, FrameInfo],
    normalize: Normalize = "total",
) -> DiffTree:
    """B against A from the flame graph's rows (stored frame ids) and the frames they name."""
    names = _Names()
    by_frame = {frame_id: names.id(info.name, info.kind) for frame_id, info in frames.items()}
    lookup = by_frame.__getitem__

    def rows(stack_weights: Iterable[StackWeight], side: int) -> Iterator[Row]:
        for row in stack_weights:
            yield [names.id(row.comm, None), *map(lookup, row.frame_ids)], side, row.weight, row.samples

    # Hundreds of thousands of allocations and no cycles: collections would re-scan the growing
    # tree again and again (see kit/gc.py).
    with gc_paused():
        return DiffTree(names, [*rows(a, 0), *rows(b, 1)], normalize)


def _whole(tree: DiffTree, max_nodes: int, max_depth: int | None) -> DiffResult:
    whole = tree.result((), max_nodes, max_depth)
    assert whole is not None  # the root is always there
    return whole


def _function_table(a: _Side, b: _Side, names: _Names, scale: float) -> list[FunctionDelta]:
    """Per function name, largest total change first."""
    ids = a.total_weights.keys() | b.total_weights.keys()
    table = [
        FunctionDelta(
            name=names.names[i],
            self_a=a.self_weights.get(i, 0),
            self_b=b.self_weights.get(i, 0),
            total_a=a.total_weights.get(i, 0),
            total_b=b.total_weights.get(i, 0),
            scale=scale,
        )
        for i in ids
    ]
    return top_functions(table, len(table), "total")


@dataclass(frozen=True, slots=True)
class _Pruned:
    root: dict[str, Any]
    node_count: int
    pruned_nodes: int
    prune_threshold: float
    deep_nodes: int
    height: int


def _num(value: float) -> float | int:
    """Whole numbers as ints, the rest to DIGITS places: short JSON, exact where it can be."""
    rounded = round(value, DIGITS)
    return int(rounded) if rounded == int(rounded) else rounded


def _kept(
    trie: _Trie, top: int, scale: float, max_nodes: int, max_depth: int | None
) -> tuple[list[int], float]:
    """The `max_nodes` heaviest nodes of `top`'s subtree at most `max_depth` levels below it, in index
    order (parents first), and the heaviest left out for weight.

    A node weighs the larger of its sides. Weights never grow from parent to child, so the heaviest
    nodes already form a tree; ties go to the lower index, which is the parent's. Cutting by depth
    keeps a tree as well: a node's parent is one level higher.
    """
    end = top + trie.size[top]
    candidates: Sequence[int] = range(top, end)
    if max_depth is not None:
        limit = trie.depth[top] + max_depth
        depths = trie.depth[top:end]
        if max(depths) > limit:
            candidates = list(compress(candidates, map(ge, repeat(limit), depths)))  # depth <= limit
    if len(candidates) <= max_nodes:
        return list(candidates), 0.0
    if isinstance(candidates, range):
        a_part, b_part = trie.a[top:end], trie.b[top:end]
    else:
        a_part, b_part = [trie.a[i] for i in candidates], [trie.b[i] for i in candidates]
    a = a_part if scale == 1.0 else map(mul, a_part, repeat(scale))
    weight = list(map(max, a, b_part))
    ranked = sorted(weight, reverse=True)
    cut, largest_left_out = ranked[max_nodes - 1], ranked[max_nodes]
    kept = list(compress(candidates, map(lt, repeat(cut), weight)))  # w > cut, ints and floats alike
    ties = max_nodes - len(kept)
    if ties:
        kept.extend([candidates[j] for j, w in enumerate(weight) if w == cut][:ties])
        kept.sort()
    return kept, largest_left_out


def _prune(tree: DiffTree, top: int, max_nodes: int, max_depth: int | None) -> _Pruned:
    """Keep the `max_nodes` heaviest nodes of `top`'s subtree, weighing each by the larger of its sides.

    The flame graph's pruning ranks by one weight; ranking by B alone would fold away every frame
    that vanished in B, which is often what a diff is opened to find. What is not kept is summed
    into an "(other)" child of its kept parent, so every total stays honest. Share deltas stay
    shares of the whole profiles, so a zoomed frame keeps the colour it had before the zoom.
    Kept nodes at the depth limit fold their children into a "(deeper)" child instead.
    """
    trie, self_a, self_b, scale = tree.trie, tree.self_a, tree.self_b, tree.scale
    parent, name_of, a, b = trie.parent, trie.name, trie.a, trie.b
    limit = None if max_depth is None else max(max_depth, 1)  # the frame shown alone says nothing
    kept, largest_left_out = _kept(trie, top, scale, max(max_nodes, 1), limit)
    depth, size = trie.depth, trie.size
    deepest = None if limit is None else depth[top] + limit
    per_a, per_b = 1 / (a[0] or 1), 1 / (b[0] or 1)
    whole = scale == 1.0
    labels, kinds = tree.names.names, tree.names.kinds

    def node(name: str, kind: str, x: int, y: int) -> dict[str, Any]:
        return {
            "name": name,
            "kind": kind,
            "value": y,
            "a": x,
            "b": y,
            "delta": y - x if whole else round(y - x * scale, DIGITS),
            "share_delta": round(y * per_b - x * per_a, SHARE_DIGITS),
            "children": [],
        }

    def kind_of(i: int) -> str:
        return "root" if i == 0 else "process" if parent[i] == 0 else kinds[name_of[i]] or "user"

    emitted: dict[int, dict[str, Any]] = {}
    shown_a = [0] * len(parent)
    shown_b = [0] * len(parent)
    top_name = ROOT_NAME if top == 0 else labels[name_of[top]]
    root = emitted[top] = node(top_name, kind_of(top), a[top], b[top])
    for i in kept[1:]:
        p = parent[i]
        x, y = a[i], b[i]
        out = emitted[i] = node(labels[name_of[i]], kind_of(i), x, y)
        emitted[p]["children"].append(out)
        shown_a[p] += x
        shown_b[p] += y
    by_name = itemgetter("name")
    deep_nodes = height = 0
    for i in reversed(kept):
        out = emitted[i]
        children: list[dict[str, Any]] = out["children"]
        if len(children) > 1:
            children.sort(key=by_name)
        level = depth[i] - depth[top]
        if level > height:
            height = level
        if depth[i] == deepest and size[i] > 1:
            marker = node(DEEPER_NAME, "deeper", a[i] - self_a[i], b[i] - self_b[i])
            marker["folded_frames"] = size[i] - 1
            children.append(marker)
            out["truncated"] = True
            deep_nodes += size[i] - 1
            height = max(height, level + 1)
        else:
            other_a = a[i] - self_a[i] - shown_a[i]
            other_b = b[i] - self_b[i] - shown_b[i]
            if other_a or other_b:
                other = node(OTHER_NAME, "other", other_a, other_b)
                children.append(other)
                out["truncated"] = True
                height = max(height, level + 1)
        if i != top and "truncated" in out:
            emitted[parent[i]]["truncated"] = True
    largest = max(a[top] * scale, b[top])
    pruned = trie.size[top] - len(kept)
    threshold = largest_left_out / largest if largest else 0.0
    return _Pruned(root, len(kept), pruned, threshold, deep_nodes, height)
