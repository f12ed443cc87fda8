"""A weighed call-site tree back as stacks: folded (`comm;frame;... weight`), or as paths of nodes for
the profile exports, without building a tree of objects.

The folded download of a view walked an object tree built for it: about 4 s on a 116,000-sample
capture of deep stacks, for 43,000 lines. Here the stacks are the nodes where weight ends; their
paths are read off the parent array a level at a time for all of them at once, named in one
look-up, and joined line by line. What comes out is what the object walk wrote: the same names
(frames that differ only in kind share a line), the same merged weights, sorted bytewise like
stackcollapse-perf.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from stallscope.analysis.callsites import PROCESS_LEVEL, Int32s, Int64s
from stallscope.analysis.weighed_tree import SELF_VALUE, FrameLookup, WeighedTree

PROCESS_KIND = "process"
"""The kind a process node is labelled with (its name is the thread's comm, not code)."""


@dataclass(frozen=True, slots=True)
class StackPaths:
    """The stacks of a subtree: the nodes where they end, and each one's path below the subtree's top."""

    ends: Int64s
    paths: Int64s
    """Node ids, top side first, one path after another."""
    bounds: list[tuple[int, int]]
    """Where each end's path lies in `paths`."""

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        """(end node, start, stop) of each stack."""
        for end, (start, stop) in zip(self.ends.tolist(), self.bounds, strict=True):
            yield end, start, stop


def stack_paths(weighed: WeighedTree, top: int, ending: NDArray[np.bool_]) -> StackPaths:
    """The paths below `top` to every node of its subtree where `ending` holds (not `top` itself)."""
    tree = weighed.tree
    below = tree.subtree_runs(top)[1:]
    if not below:
        return StackPaths(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), [])
    nodes = np.concatenate([np.arange(first, end) for first, end in below])
    ends = nodes[ending[nodes]]
    depths = np.searchsorted(tree.level_starts, ends, side="right") - 1 - tree.level_of(top)
    paths, bounds = _paths(tree.parent, ends, depths)
    return StackPaths(ends, paths, bounds)


@dataclass(frozen=True, slots=True)
class NodeLabels:
    """Names and kinds of some nodes, each distinct node once (processes: kind `process`)."""

    names: list[str]
    kinds: list[str]
    position: list[int]
    """Per node asked about, its place in `names` and `kinds`."""


def node_labels(weighed: WeighedTree, nodes: Int64s, lookup: FrameLookup) -> NodeLabels:
    """Labels of `nodes` (processes from the tree, frames from the catalog, in one look-up)."""
    tree = weighed.tree
    used = np.zeros(tree.node_count, dtype=bool)
    used[nodes] = True
    distinct = np.flatnonzero(used)  # no sort of the paths: a mark per tree node
    position = np.zeros(tree.node_count, dtype=np.int64)
    position[distinct] = np.arange(len(distinct))
    keys = tree.key[distinct].tolist()
    is_process = (distinct < int(tree.level_starts[PROCESS_LEVEL + 1])).tolist()
    frames = lookup({key for key, process in zip(keys, is_process, strict=True) if not process})
    names, kinds = [], []
    for key, process in zip(keys, is_process, strict=True):
        if process:
            names.append(tree.comms[key])
            kinds.append(PROCESS_KIND)
        else:
            info = frames[key]
            names.append(info.name)
            kinds.append(info.kind)
    return NodeLabels(names, kinds, position[nodes].tolist())


def folded_stacks(
    weighed: WeighedTree, top: int, prefix: list[str], lookup: FrameLookup
) -> list[tuple[str, int]]:
    """The stacks of `top`'s subtree as `(folded path, self weight)`, paths starting with `prefix`
    (the names leading to `top`; empty for the root), sorted bytewise; equal paths merged."""
    self_values = weighed.columns[:, SELF_VALUE]
    weights: dict[str, int] = {}
    if prefix and self_values[top] > 0:
        weights[";".join(prefix)] = int(self_values[top])
    stacks = stack_paths(weighed, top, self_values > 0)
    labels = node_labels(weighed, stacks.paths, lookup)
    name_of, name_at = labels.names.__getitem__, labels.position
    for end, start, stop in stacks:
        names = map(name_of, name_at[start:stop])
        line = ";".join([*prefix, *names]) if prefix else ";".join(names)
        weights[line] = weights.get(line, 0) + int(self_values[end])
    if all(line.isascii() for line in weights):  # code point order is byte order: no encoding
        return sorted(weights.items())
    return sorted(weights.items(), key=lambda line: line[0].encode("utf-8", "surrogateescape"))


def _paths(parent: Int32s, ends: Int64s, depths: Int64s) -> tuple[Int64s, list[tuple[int, int]]]:
    """Each end node's path below the top, top side first, one after another in one array; and
    where each path lies in it. A level at a time for every path still that deep: the deepest
    first, so the paths still climbing are always a prefix of them."""
    order = np.argsort(-depths, kind="stable")
    deepest = depths[order]
    stops = np.cumsum(deepest)
    starts = stops - deepest
    paths = np.empty(int(stops[-1]) if len(stops) else 0, dtype=np.int64)
    climbing = ends[order].astype(np.int64)
    rising = -deepest  # ascending, for searchsorted
    for step in range(int(deepest[0]) if len(deepest) else 0):
        still = int(np.searchsorted(rising, -step, side="left"))  # the paths deeper than `step`
        climbing = climbing[:still]
        paths[stops[:still] - 1 - step] = climbing
        climbing = parent[climbing].astype(np.int64)
    bounds = [(0, 0)] * len(ends)
    for at, start, stop in zip(order.tolist(), starts.tolist(), stops.tolist(), strict=True):
        bounds[at] = (start, stop)
    return paths, bounds
