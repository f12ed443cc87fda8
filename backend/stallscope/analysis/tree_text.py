"""A pruned flame or diff tree written straight to JSON text from arrays, without a dict per node.

Building one dict per node, linking them into `children` lists, sorting those, encoding the dicts and
freeing them again cost about four times what the text costs to write directly: for a 50,000-node
answer, 200 ms against 50. Writing it directly also has no nesting limit (an encoder recurses once
per level; a stack can be deeper than its limit).

The nodes come in level order, each with its parent's position. Siblings are written in name order,
as d3-flame-graph has always been given them. A node's text is its "open" (`{...,"children":[`) and
its "close" (its folded child, if any, and `]}`); in depth-first order the opens come in preorder and
the closes in postorder, and both positions follow from the preorder number, the depth and the
subtree size, so the text is one join of a list filled by index.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import orjson
from numpy.typing import NDArray

Int64s = NDArray[np.int64]
TRUNCATED = ',"truncated":true'
CHILDREN = ',"children":['
NODES_PER_LEVEL_STEP = 64
"""Below this many nodes per level, sizes and depth-first numbers are found a node at a time: a numpy
step per level costs about as much as 64 nodes walked in Python."""


def json_string(value: str) -> str:
    """`value` as a JSON string literal. A frame name that was not valid UTF-8 holds surrogate escapes,
    which orjson refuses: those go through the standard library and stay escapes (written back as their
    bytes when the text is encoded with "surrogateescape")."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False)


def number_texts(values: NDArray[Any]) -> list[str]:
    """Each number of `values` as JSON text, formatted by orjson in one call: formatting floats one
    by one in Python costs several times as much."""
    if not len(values):
        return []
    contiguous = np.ascontiguousarray(values)
    return orjson.dumps(contiguous, option=orjson.OPT_SERIALIZE_NUMPY).decode()[1:-1].split(",")


@dataclass(frozen=True, slots=True)
class TreeLayout:
    """Where each node's text goes, and how it starts: node i's text is `opener(i)` followed by its
    fields, then `",\"children\":["` (`TRUNCATED` before it where marked), written by the caller in
    one pass over its own columns (`assemble` puts the pieces in place)."""

    starts: list[str]
    """Per node, `{"name":"..."` with the comma before it when it is not its parent's first child."""
    sizes: Int64s
    opens_at: Int64s
    closes_at: Int64s


def layout(above: Int64s, depths: Int64s, name_ids: Int64s, names: Sequence[str]) -> TreeLayout:
    """Lay out a tree of `len(above)` nodes: node i is named `names[name_ids[i]]`, `above[i]` is its
    parent's position (-1 for node 0, the top; parents come before children), `depths[i]` its depth
    below the top."""
    count = len(above)
    unique = sorted(set(names))
    rank_of = {name: i for i, name in enumerate(unique)}
    ranks = np.array([rank_of[name] for name in names], dtype=np.int64)[name_ids]  # equal names: equal ranks
    order = np.lexsort((ranks, above))  # by parent, then name; stable: equal names keep their order
    first_child = np.ones(count, dtype=bool)
    first_child[order[1:]] = above[order[1:]] != above[order[:-1]]
    levels = int(depths[-1]) + 1 if count else 0
    if levels * NODES_PER_LEVEL_STEP > count:  # deep and narrow: a level at a time would crawl
        sizes, pre = _sizes_and_preorder_by_node(above, order)
    else:
        sizes, pre = _sizes_and_preorder_by_level(above, depths, order, first_child, levels)
    opens_at = 2 * pre - depths
    literal = [json_string(name) for name in unique]
    starts = [
        f'{{"name":{literal[rank]}' if first else f',{{"name":{literal[rank]}'
        for first, rank in zip(first_child.tolist(), ranks.tolist(), strict=True)
    ]
    return TreeLayout(starts, sizes, opens_at, opens_at + 2 * sizes - 1)


def assemble(tree: TreeLayout, opens: Sequence[str], folded: dict[int, str]) -> str:
    """The tree's JSON text from each node's open (`TreeLayout`) and, for some, the JSON text of
    their one folded child ("(other)" or "(deeper)"), written after their other children."""
    texts = np.empty(2 * len(opens), dtype=object)
    texts[tree.opens_at] = opens
    closes = np.full(len(opens), "]}", dtype=object)
    for i, child in folded.items():
        closes[i] = f"{',' if tree.sizes[i] > 1 else ''}{child}]}}"
    texts[tree.closes_at] = closes
    return "".join(texts.tolist())


def _sizes_and_preorder_by_level(
    above: Int64s, depths: Int64s, order: Int64s, first_child: NDArray[np.bool_], levels: int
) -> tuple[Int64s, Int64s]:
    """Each node's subtree size, and its depth-first number with siblings in `order`: a child comes
    right after its parent and the subtrees of its earlier siblings. A level at a time (`order` lists
    a level's nodes together, parents before children, so each level is one slice of it)."""
    sizes = np.ones(len(above), dtype=np.int64)
    level_ends = np.searchsorted(depths, np.arange(levels), side="right")
    for depth in range(levels - 1, 0, -1):  # deepest level first: children before parents
        lo, hi = int(level_ends[depth - 1]), int(level_ends[depth])
        np.add.at(sizes, above[lo:hi], sizes[lo:hi])
    pre = np.zeros(len(above), dtype=np.int64)
    bounds = np.flatnonzero(np.diff(depths[order])) + 1
    for level in np.split(order, bounds)[1:]:
        before = np.cumsum(sizes[level]) - sizes[level]  # sizes of the level's earlier nodes
        starts = np.flatnonzero(first_child[level])
        run_of = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(level))))
        pre[level] = pre[above[level]] + 1 + before - before[starts][run_of]
    return sizes, pre


def _sizes_and_preorder_by_node(above: Int64s, order: Int64s) -> tuple[Int64s, Int64s]:
    """`_sizes_and_preorder_by_level` a node at a time, for trees with few nodes per level (a
    100,000-frame stack shown whole): linear in nodes, where the other is linear in levels."""
    parents = above.tolist()
    sizes = [1] * len(parents)
    for node in range(len(parents) - 1, 0, -1):  # children come after their parents
        sizes[parents[node]] += sizes[node]
    pre = [0] * len(parents)
    next_slot = [-1] * len(parents)  # per parent, where its next child's subtree starts
    for node in order.tolist()[1:]:
        parent = parents[node]
        slot = next_slot[parent] if next_slot[parent] >= 0 else pre[parent] + 1
        pre[node] = slot
        next_slot[parent] = slot + sizes[node]
    return np.array(sizes, dtype=np.int64), np.array(pre, dtype=np.int64)


def node_text(name: str, fields: str) -> str:
    """One childless node's JSON text (a folded "(other)" or "(deeper)" child)."""
    return f'{{"name":{json_string(name)}{fields},"children":[]}}'
