"""A weighed call-site tree back as folded stacks (`comm;frame;... weight`), without building a tree
of objects.

The folded download of a view walked an object tree built for it: about 4 s on a 116,000-sample
capture of deep stacks, for 43,000 lines. Here the stacks are the nodes where weight ends; their
paths are read off the parent array a level at a time for all of them at once, named in one
look-up, and joined line by line. What comes out is what the object walk wrote: the same names
(frames that differ only in kind share a line), the same merged weights, sorted bytewise like
stackcollapse-perf.
"""

from __future__ import annotations

import numpy as np

from stallscope.analysis.callsites import PROCESS_LEVEL, Int32s, Int64s
from stallscope.analysis.weighed_tree import SELF_VALUE, FrameLookup, WeighedTree


def folded_stacks(
    weighed: WeighedTree, top: int, prefix: list[str], lookup: FrameLookup
) -> list[tuple[str, int]]:
    """The stacks of `top`'s subtree as `(folded path, self weight)`, paths starting with `prefix`
    (the names leading to `top`; empty for the root), sorted bytewise; equal paths merged."""
    tree = weighed.tree
    self_values = weighed.columns[:, SELF_VALUE]
    weights: dict[str, int] = {}
    if prefix and self_values[top] > 0:
        weights[";".join(prefix)] = int(self_values[top])
    below = tree.subtree_runs(top)[1:]
    if below:
        nodes = np.concatenate([np.arange(first, end) for first, end in below])
        ends = nodes[self_values[nodes] > 0]
        top_level = tree.level_of(top)
        depths = np.searchsorted(tree.level_starts, ends, side="right") - 1 - top_level
        paths, bounds = _paths(tree.parent, ends, depths)
        texts, name_at = _names(weighed, paths, lookup)
        name_of = texts.__getitem__
        for (start, end), weight in zip(bounds, self_values[ends].tolist(), strict=True):
            names = map(name_of, name_at[start:end])
            line = ";".join([*prefix, *names]) if prefix else ";".join(names)
            weights[line] = weights.get(line, 0) + weight
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


def _names(weighed: WeighedTree, nodes: Int64s, lookup: FrameLookup) -> tuple[list[str], list[int]]:
    """The distinct names of `nodes` (processes from the tree, frames from the catalog, in one
    look-up), and each node's position among them."""
    tree = weighed.tree
    used = np.zeros(tree.node_count, dtype=bool)
    used[nodes] = True
    distinct = np.flatnonzero(used)  # no sort of the paths: a mark per tree node
    position = np.zeros(tree.node_count, dtype=np.int64)
    position[distinct] = np.arange(len(distinct))
    keys = tree.key[distinct].tolist()
    is_process = (distinct < int(tree.level_starts[PROCESS_LEVEL + 1])).tolist()
    frames = lookup({key for key, process in zip(keys, is_process, strict=True) if not process})
    pairs = zip(keys, is_process, strict=True)
    texts = [tree.comms[key] if process else frames[key].name for key, process in pairs]
    return texts, position[nodes].tolist()
