"""JSON bodies holding a flame or diff tree, however deep the tree nests.

Encoders recurse once per nested container: orjson stops at 255 levels, the standard library's C
encoder near the interpreter's recursion limit, and a tree node is a dict whose children are a list,
two containers a level. Trees taller than `SHALLOW_LEVELS` are written here with an explicit stack,
and every subtree short enough is handed to the encoder whole, so a deep answer costs a little more
than a shallow one and a shallow one nothing.

orjson encodes a 50,000-node answer (9 MB) about eight times faster than the standard library. It
refuses strings holding lone surrogates (frame names that were not valid UTF-8 come in as surrogate
escapes); such a part goes through the standard library, which writes them back as their bytes.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

import orjson

from stallscope.analysis.flame import TALL_LEVELS

SHALLOW_LEVELS = TALL_LEVELS
"""Tree levels an encoder is given at once: 200 nested containers, inside orjson's limit of 255."""


def _dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8", "surrogateescape")


def tree_payload_json(
    payload: dict[str, Any], tree: dict[str, Any], height: int, tall: Collection[int] | None = None
) -> bytes:
    """`payload` with `tree` added as "root", UTF-8 encoded; `height` is the tree's levels below its root,
    `tall` the `id` of every node at least `SHALLOW_LEVELS` tall if the caller knows them.

    Frame names that were not valid UTF-8 went in as surrogate escapes and come out as their bytes.
    """
    if height < SHALLOW_LEVELS:
        return _dumps({**payload, "root": tree})
    head = _dumps(payload)
    return b"".join((head[:-1], b"," if payload else b"", b'"root":', tree_json_bytes(tree, tall), b"}"))


def tree_json(root: dict[str, Any], tall: Collection[int] | None = None) -> str:
    """One `{..., "children": [...]}` tree as compact JSON text, without recursion; `tall` as above."""
    return tree_json_bytes(root, tall).decode("utf-8", "surrogateescape")


def tree_json_bytes(root: dict[str, Any], tall: Collection[int] | None = None) -> bytes:
    """`tree_json`, UTF-8 encoded: the form answers are sent in, without a decode and encode between."""
    if tall is None:
        heights = _heights(root)
        tall = {node for node, h in heights.items() if h >= SHALLOW_LEVELS}
    parts: list[bytes] = []
    pending: list[dict[str, Any] | bytes] = [root]  # nodes to write, and the text that closes them
    while pending:
        item = pending.pop()
        if isinstance(item, bytes):
            parts.append(item)
            continue
        if item is not root and id(item) not in tall:  # the root is tall, or it would not be here
            parts.append(_dumps(item))
            continue
        fields = {key: value for key, value in item.items() if key != "children"}
        head = _dumps(fields)
        parts.append(head[:-1] + (b"," if fields else b"") + b'"children":[')
        pending.append(b"]}")
        children: list[dict[str, Any]] = item["children"]
        for i in range(len(children) - 1, -1, -1):
            pending.append(children[i])
            if i:
                pending.append(b",")
    return b"".join(parts)


def _heights(root: dict[str, Any]) -> dict[int, int]:
    """Levels below each node (by `id`), in one pass down and one back up."""
    order: list[dict[str, Any]] = [root]
    parents: list[int] = [-1]
    i = 0
    while i < len(order):
        for child in order[i]["children"]:
            order.append(child)
            parents.append(i)
        i += 1
    height = [0] * len(order)
    for j in range(len(order) - 1, 0, -1):
        above = parents[j]
        if height[j] >= height[above]:
            height[above] = height[j] + 1
    return {id(node): h for node, h in zip(order, height, strict=True)}
