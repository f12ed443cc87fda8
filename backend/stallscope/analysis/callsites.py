"""Call-site trees in flat arrays: the shape of a flame graph, built once, weighed per request.

A call site is a parent call site plus one frame, as in Perfetto's profile tables; a stack is its
leaf call site. The tree of a capture's call sites does not depend on the time range, thread or
event a view selects, only its weights do. So the shape is built once per capture (and kept), and a
request only adds its stack weights at their leaves and sums them up towards the root.

Everything is a numpy array, numbered level by level: the root is node 0, the process names are
level 1 (flame graphs group by process first), frames are the levels below. Inside a level, nodes
are sorted by (parent, key), so

- the children of a node are one contiguous run of the next level,
- a subtree is one contiguous run per level (the children of a run are a run), and
- summing weights up a level is one `reduceat` over runs of equal parents.

A 400,000-node tree then costs a few milliseconds to weigh, where a tree of Python objects cost
seconds to build and hundreds of megabytes to keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np
from numpy.typing import NDArray

Int32s = NDArray[np.int32]
Int64s = NDArray[np.int64]

ROOT = 0
PROCESS_LEVEL = 1
FRAME_BITS = 32
"""A level's sort key is (parent << 32) | key: frame ids and process indexes fit 32 bits."""


TREE_ARRAYS = ("parent", "key", "level_starts", "pair_keys", "pair_leaf")
"""The arrays a `CallsiteTree` is made of (what is stored of one, with its comms)."""


@dataclass(frozen=True, slots=True)
class Stacks:
    """Stacks to build a tree from: per (process, stack) pair its frame ids, root first, in one array.

    `frames[offsets[i]:offsets[i] + lengths[i]]` are pair i's frames.
    """

    comms: Sequence[str]
    comm: Int32s
    """Per pair, its index in `comms`."""
    stack: Int64s
    """Per pair, its stored stack id."""
    offsets: Int64s
    lengths: Int64s
    frames: Int32s


@dataclass(frozen=True, slots=True, eq=False)
class CallsiteTree:
    """One tree of call sites, and where each (process, stack) pair ends in it."""

    parent: Int32s
    """Per node, its parent (-1 for the root)."""
    key: Int32s
    """Per node: its frame id; on level 1 its process's index in `comms`; -1 for the root."""
    level_starts: Int64s
    """Level d's nodes are `level_starts[d]` up to `level_starts[d + 1]`."""
    comms: tuple[str, ...]
    pair_keys: Int64s
    """Sorted `stack * len(comms) + comm` of every pair the tree holds."""
    pair_leaf: Int32s
    """The node each pair of `pair_keys` ends at."""
    whole: dict[str, tuple[Int64s, Int64s]] = field(default_factory=dict)
    """A capture's own tree: per event, every pair's weight and samples over the whole capture,
    aligned with `pair_keys` (the view a capture is first opened with needs no query then).
    Empty for a merged tree."""
    _runs: list[Int32s] = field(default_factory=list, repr=False)

    @property
    def node_count(self) -> int:
        return len(self.parent)

    @property
    def levels(self) -> int:
        return len(self.level_starts) - 1

    @property
    def nbytes(self) -> int:
        """Memory the arrays hold: what a cache of trees is bounded by."""
        arrays: list[Int64s | Int32s] = [
            self.parent,
            self.key,
            self.level_starts,
            self.pair_keys,
            self.pair_leaf,
        ]
        arrays.extend(a for pair in self.whole.values() for a in pair)
        return sum(a.nbytes for a in [*arrays, *self._runs])

    def level_of(self, node: int) -> int:
        return int(np.searchsorted(self.level_starts, node, side="right")) - 1

    def pair_comms(self) -> list[str]:
        """The process name of each pair of `pair_keys`."""
        comm = (self.pair_keys % max(len(self.comms), 1)).tolist()
        return [self.comms[i] for i in comm]

    def pair_stacks(self) -> Int64s:
        """The stack id of each pair of `pair_keys`."""
        return self.pair_keys // max(len(self.comms), 1)

    def pair_positions(self, comms: Sequence[str], stacks: Int64s) -> Int64s:
        """Where each (comm, stack) pair sits in `pair_keys`; -1 where the tree does not hold it."""
        if not len(self.pair_keys):
            return np.full(len(comms), -1, dtype=np.int64)
        index = {name: i for i, name in enumerate(self.comms)}
        comm = np.fromiter(map(index.get, comms, repeat(-1)), dtype=np.int64, count=len(comms))
        keys = stacks.astype(np.int64) * len(self.comms) + comm
        at = np.minimum(np.searchsorted(self.pair_keys, keys), len(self.pair_keys) - 1)
        found = (comm >= 0) & (self.pair_keys[at] == keys)
        return np.where(found, at, -1)

    def leaves(self, comms: Sequence[str], stacks: Int64s) -> Int32s:
        """The leaf node of each (comm, stack) pair; -1 where the tree does not hold the pair."""
        at = self.pair_positions(comms, stacks)
        return np.where(at >= 0, self.pair_leaf[at], -1).astype(np.int32)

    def groups(self, level: int) -> tuple[Int32s, Int32s]:
        """Level `level`'s runs of siblings: where each run starts (in the level) and their parent."""
        runs = self.run_starts()
        lo, hi = self.level_starts[level], self.level_starts[level + 1]
        first, end = np.searchsorted(runs, np.array([lo, hi], dtype=runs.dtype))  # same dtype: no copy
        starts = runs[first:end]
        return starts - lo, self.parent[starts]

    def run_starts(self) -> Int32s:
        """Where every run of siblings starts, over all levels (a node whose parent differs from the
        previous node's): found once per tree, a fraction of its size."""
        if not self._runs:
            parents = self.parent
            starts = np.flatnonzero(np.concatenate(([True], parents[1:] != parents[:-1])))
            self._runs.append(starts.astype(np.int32))  # half the bytes: a tree has under 2**31 nodes
        return self._runs[0]

    def children(self, node: int) -> tuple[int, int]:
        """The run of `node`'s children: [first, end)."""
        level = self.level_of(node) + 1
        if level >= self.levels:
            return (0, 0)
        lo, hi = int(self.level_starts[level]), int(self.level_starts[level + 1])
        parents = self.parent[lo:hi]
        first = lo + int(np.searchsorted(parents, node, side="left"))
        end = lo + int(np.searchsorted(parents, node, side="right"))
        return (first, end)

    def subtree_runs(self, node: int, max_levels: int | None = None) -> list[tuple[int, int]]:
        """`node`'s subtree as one [first, end) run per level, `node`'s own first, at most
        `max_levels` levels below it."""
        runs = [(node, node + 1)]
        level = self.level_of(node)
        lo_run, hi_run = node, node + 1
        while level + 1 < self.levels and (max_levels is None or len(runs) <= max_levels):
            level += 1
            lo, hi = int(self.level_starts[level]), int(self.level_starts[level + 1])
            parents = self.parent[lo:hi]
            first = lo + int(np.searchsorted(parents, lo_run, side="left"))
            end = lo + int(np.searchsorted(parents, hi_run, side="left"))
            if first >= end:
                break
            runs.append((first, end))
            lo_run, hi_run = first, end
        return runs

    def sum_up(self, values: NDArray[np.int64]) -> None:
        """Make per-node columns inclusive, in place: each node gets its subtree's sum.

        `values` has one row per node and any number of columns (weight, samples, ...).
        """
        for level in range(self.levels - 1, PROCESS_LEVEL - 1, -1):
            lo, hi = self.level_starts[level], self.level_starts[level + 1]
            starts, parents = self.groups(level)
            values[parents] += np.add.reduceat(values[lo:hi], starts, axis=0)


DENSE_SLACK = 8
"""`unique_inverse` counts in a table of `max + 1` flags when that is at most this many times the
values' count (plus a floor): frame ids are dense enough in practice, a sort is the fallback."""


def unique_inverse(values: Int64s) -> tuple[Int64s, Int64s]:
    """`np.unique(values, return_inverse=True)` for non-negative integers: by a table of flags
    when the values are dense enough (linear: 1 ms where the sort takes 45 ms on 350,000 frame ids)."""
    top = int(values.max(initial=-1)) + 1
    if top > DENSE_SLACK * len(values) + 1_000_000:
        uniques, inverse = np.unique(values, return_inverse=True)
        return uniques, inverse.reshape(-1)
    present = np.zeros(top, dtype=bool)
    present[values] = True
    rank = np.cumsum(present, dtype=np.int64) - 1
    return np.flatnonzero(present), rank[values]


def unique_of_runs(values: Int64s) -> tuple[Int64s, Int64s, Int64s]:
    """`np.unique(values, return_index=True, return_inverse=True)` for values that are a few sorted
    runs one after another (the same level of several trees): a stable sort finds and merges the
    runs (numpy's timsort), where `np.unique` sorts from scratch: 46 ms against 196 to merge ten
    300,000-node trees. The index is each value's first occurrence."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.empty(len(values), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(len(values), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], order[new], inverse


def build(stacks: Stacks) -> CallsiteTree:
    """Intern every prefix of every pair's path (process, then frames root first) as a node."""
    pairs = len(stacks.comm)
    parents: list[Int32s] = [np.array([-1], dtype=np.int32)]
    keys: list[Int32s] = [np.array([-1], dtype=np.int32)]
    starts = [0, 1]
    processes, node = np.unique(stacks.comm, return_inverse=True)
    parents.append(np.zeros(len(processes), dtype=np.int32))
    keys.append(processes.astype(np.int32))
    total = 1 + len(processes)
    starts.append(total)
    node = (node + 1).astype(np.int64)
    alive = np.arange(pairs)
    depth = 0
    while True:
        alive = alive[stacks.lengths[alive] > depth]
        if not len(alive):
            break
        frames = stacks.frames[stacks.offsets[alive] + depth].astype(np.int64)
        combined = (node[alive] << FRAME_BITS) | frames
        level, inverse = np.unique(combined, return_inverse=True)
        parents.append((level >> FRAME_BITS).astype(np.int32))
        keys.append((level & 0xFFFFFFFF).astype(np.int32))
        node[alive] = total + inverse
        total += len(level)
        starts.append(total)
        depth += 1
    pair_keys = stacks.stack.astype(np.int64) * len(stacks.comms) + stacks.comm
    order = np.argsort(pair_keys, kind="stable")
    return CallsiteTree(
        parent=np.concatenate(parents),
        key=np.concatenate(keys),
        level_starts=np.array(starts, dtype=np.int64),
        comms=tuple(stacks.comms),
        pair_keys=pair_keys[order],
        pair_leaf=node[order].astype(np.int32),
    )


def merge(trees: Sequence[CallsiteTree], frame_keys: Int64s | None = None) -> CallsiteTree:
    """One tree holding every path of `trees` once (the trees of several captures, for one view).

    With `frame_keys`, frames are merged by `frame_keys[frame id]` instead of their id: the diff
    merges frames by name, so a frame id is replaced by its name's index and equal names meet.
    """
    if len(trees) == 1 and frame_keys is None:
        return trees[0]
    comms = tuple(sorted({c for tree in trees for c in tree.comms}))
    comm_index = {c: i for i, c in enumerate(comms)}
    maps = [np.zeros(tree.node_count, dtype=np.int64) for tree in trees]
    parents: list[Int32s] = [np.array([-1], dtype=np.int32)]
    keys: list[Int32s] = [np.array([-1], dtype=np.int32)]
    starts = [0, 1]
    total = 1
    for level in range(PROCESS_LEVEL, max(tree.levels for tree in trees)):
        parts: list[Int64s] = []
        for tree, old_to_new in zip(trees, maps, strict=True):
            if level >= tree.levels:
                parts.append(np.zeros(0, dtype=np.int64))
                continue
            lo, hi = tree.level_starts[level], tree.level_starts[level + 1]
            key = tree.key[lo:hi].astype(np.int64)
            if level == PROCESS_LEVEL:
                remap = np.array([comm_index[c] for c in tree.comms], dtype=np.int64)
                key = remap[key]
            elif frame_keys is not None:
                key = frame_keys[key]
            parts.append((old_to_new[tree.parent[lo:hi]] << FRAME_BITS) | key)
        combined = np.concatenate(parts)
        merged, _, inverse = unique_of_runs(combined)
        at = 0
        for tree, old_to_new, part in zip(trees, maps, parts, strict=True):
            if len(part):
                lo = tree.level_starts[level]
                old_to_new[lo : lo + len(part)] = total + inverse[at : at + len(part)]
                at += len(part)
        parents.append((merged >> FRAME_BITS).astype(np.int32))
        keys.append((merged & 0xFFFFFFFF).astype(np.int32))
        total += len(merged)
        starts.append(total)
    pair_parts: list[Int64s] = []
    leaf_parts: list[Int64s] = []
    for tree, old_to_new in zip(trees, maps, strict=True):
        remap = np.array([comm_index[c] for c in tree.comms], dtype=np.int64)
        stack, comm = np.divmod(tree.pair_keys, len(tree.comms))
        pair_parts.append(stack * len(comms) + remap[comm])
        leaf_parts.append(old_to_new[tree.pair_leaf])
    pair_keys, first, _ = unique_of_runs(np.concatenate(pair_parts))
    return CallsiteTree(
        parent=np.concatenate(parents),
        key=np.concatenate(keys),
        level_starts=np.array(starts, dtype=np.int64),
        comms=comms,
        pair_keys=pair_keys,
        pair_leaf=np.concatenate(leaf_parts)[first].astype(np.int32),
    )
